#!/usr/bin/env bash
# The cost model against the clock (bench/HISTORY.md, "Cost model"): each run file's estimated core-seconds
# (--validate-only) beside the measured CPU time of the same run on one thread; the estimate is
# to be right within a factor of 3. Results in bench/HISTORY.md, "Cost model".
#   bash bench/cost_model.sh [build dir] [scratch dir]
set -euo pipefail
cd "$(dirname "$0")/.."
collnoise="$(pwd)/${1:-build}/collnoise"
out="${2:-$(mktemp -d)}"
mkdir -p "$out"
printf "| run file | estimated core-s | measured core-s | measured / estimated |\n|---|---|---|---|\n"
for runfile in runs/default.toml runs/agarwal-fig4-exponential.toml runs/agarwal-fig6-bernoulli.toml \
               runs/agarwal-nhalf.toml runs/hoefler-fig13.toml runs/hoefler-fig16.toml \
               runs/bosque-fig3.toml runs/isoefficiency-noise.toml tests/known_answers/extra-cycles.toml \
               tests/known_answers/extra-timed-tree.toml; do
  dir="$(dirname "$runfile")"
  estimate=$(cd "$dir" && "$collnoise" run "$(basename "$runfile")" --validate-only --threads 1 |
             sed -n 's/.*estimated work \([0-9.e+-]*\) \(core-[a-z]*\).*/\1 \2/p')
  value=${estimate% *}
  unit=${estimate#* }
  case "$unit" in
    core-seconds) seconds=$value ;;
    core-minutes) seconds=$(python3 -c "print($value*60)") ;;
    core-hours) seconds=$(python3 -c "print($value*3600)") ;;
    *) seconds=$value ;;
  esac
  measured=$( { cd "$dir" && /usr/bin/time -f "%U %S" "$collnoise" run "$(basename "$runfile")" \
                --out "$out/r.h5" --force --quiet --no-checkpoint --threads 1 ; } 2>&1 | tail -1 |
             awk '{print $1 + $2}')
  python3 -c "print(f'| $runfile | {float($seconds):.3g} | {float($measured):.3g} | {float($measured)/float($seconds):.2f} |')"
done
