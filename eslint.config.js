// One type-aware linter for the whole workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // tsup writes a `tsup.config.bundled_*.mjs` beside its config while it builds, and the CLI's schema tests write
    // modules into `.spec-check-*` folders while they run: turbo runs lint at the same time.
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      '**/demo-output/**',
      'coverage/**',
      '**/*.config.bundled_*',
      '**/.spec-check-*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // Core and the dataset's main entry run in browsers and edge runtimes: web-standard APIs only.
    files: ['packages/core/src/**/*.ts', 'packages/dataset/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      '**/testing/**',
      'packages/dataset/src/node/**',
      'packages/dataset/src/node.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(node:|(fs|path|os|zlib|stream|worker_threads|child_process|crypto|util|url|buffer|events)(/|$))',
              message: 'web-standard code: no Node.js modules (put Node-only code behind a node entry)',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['Buffer', 'process', 'require', '__dirname', '__filename', 'setImmediate', 'global'].map(
          (name) => ({
            name,
            message: 'web-standard code: not a web global',
          }),
        ),
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/testing/**', 'bench/**', '**/__fixtures__/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
