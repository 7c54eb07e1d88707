#!/usr/bin/env bash
# One conversion as an AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX is the index), then finalize.
#   aws batch register-job-definition --cli-input-json file://examples/aws-batch/job-definition.json
#   examples/aws-batch/submit.sh QUEUE /data/plan.json 64
# Arrays depend with SEQUENTIAL or N_TO_N only on success, so finalize here depends on the array job
# as a whole; if it fails (an index failed past its attempts), run `tfpipe finalize PLAN` by hand: it
# lists the indexes to submit again.
set -euo pipefail
queue=$1 plan=$2 shards=$3
work=$(aws batch submit-job --job-name tfpipe-work --job-queue "$queue" --job-definition tfpipe-work \
  --array-properties "size=$shards" --parameters "plan=$plan" --query jobId --output text)
aws batch submit-job --job-name tfpipe-finalize --job-queue "$queue" --job-definition tfpipe-work \
  --depends-on "jobId=$work" --parameters "plan=$plan" \
  --container-overrides "command=npx,--yes,@tfpipe/cli,finalize,$plan"
