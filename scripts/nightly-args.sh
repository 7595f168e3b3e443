# nightly-args.sh — sourced, not run: the nightly's planners, limits and tag, in
# one place for scripts/nightly.sh, scripts/slurm/ and scripts/parallel/.
# Reads $full (1: the --full set, else the default one); sets the arrays
# planners and limits and the string tag, to pass to `arenabench run` as
#   run --tag "$tag" "${planners[@]}" "${limits[@]}" SUITES...
# scripts/nightly.sh's header explains the budgets and caps.
planners=(--planners default -p exact-cover:nodes=100000,time=30
          -p canonical:nodes=150000,time=45 --subset-bound nodes=200,time=30)
limits=(--cpu-limit 60 --time-limit 600 --mem-limit 4G --ilp --ilp-nodes 2000 --ilp-time 40
        --ilp-max-tensors 300 --repeat-min 3 --repeat-time 0.5 --repeat-below 0.5
        --rerun-wall-capped)
tag=nightly
if [ "${full:-0}" = 1 ]; then
    planners=(--planners all -p exact-cover:nodes=600000,time=180
              -p canonical:nodes=10000000,time=120 --subset-bound nodes=1000,time=120)
    limits=(--cpu-limit 600 --time-limit 3600 --mem-limit 8G --ilp --ilp-nodes 10000 --ilp-time 300
            --ilp-max-tensors 2000 --repeat-min 5 --repeat-time 2 --repeat-below 2
            --rerun-wall-capped)
    tag=nightly-full
fi
