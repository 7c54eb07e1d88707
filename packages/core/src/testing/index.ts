/**
 * @module @tfpipe/core/testing
 * Stream helpers and the conformance suites every tfpipe source and sink runs.
 */
export {};
