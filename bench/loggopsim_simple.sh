#!/usr/bin/env bash
# collnoise's simple contention model side by side with LogGOPSim's `-n simple`
# (docs/models/contention.md): the same GOAL schedule on an XGFT fat tree, in collnoise as
# `network.topology = "xgft(...)"` with `network.contention = "simple"`, in LogGOPSim with the
# same tree written as its annotated dot file by bench/dot_fat_tree.py (the same links, the same
# D-mod-K routes). Both run without noise; a row is equal when every rank's finishing time is.
#
#   bash bench/loggopsim_simple.sh PATH_TO_LOGGOPSIM_BINARY [PATH_TO_TXT2BIN]
#
# Run from the repository root after a build (./build/collnoise). LOGGOPSIM is a build of
# spcl/LogGOPSim's src/LogGOPSim (a peer to compare with, never a dependency; build it with
# -DNDEBUG for numbers: its asserts stop some runs that its optimised build completes);
# TXT2BIN defaults to the txt2bin beside it. Everything is written to a temporary directory,
# removed at the end. Environment:
#   CASES=REGEX     only the cases whose name matches (default: all)
#   TIME_LARGEST=1  also time both sides, without logging, on the last case run
#
# What is compared. LogGOPSim prints every rank's finishing time (its CPU's last busy end) only
# up to 16 ranks, and the largest above; so every rank's time is rebuilt from its --verbose log
# (each executed send, message taken, computation and rendezvous release sets the rank's CPU
# time, by LogGOPSim's own formulas) and checked against what it prints: the largest always,
# every rank up to 16. The log does not name a message's size, so it is taken from the GOAL file,
# which for these cases gives one size to every sender and receiver pair. The network's polls
# that found a message still in it ("query returned" later than the poll) are counted as
# collnoise's noiseless_network_repolls counts them: equal counts mean the same polls.
# A LogGOPSim run that crashes (a message out of the network while its receiver is busy is
# polled again after LogGOPSim forgot it; docs/models/contention.md) is listed with its signal.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: bash bench/loggopsim_simple.sh PATH_TO_LOGGOPSIM_BINARY [PATH_TO_TXT2BIN]" >&2
  exit 2
fi
lgs="$(readlink -f "$1")"
txt2bin="$(readlink -f "${2:-$(dirname "$lgs")/txt2bin}")"
cd "$(dirname "$0")/.."
collnoise="$(pwd)/build/collnoise"
dot_tree="$(pwd)/bench/dot_fat_tree.py"
for x in "$lgs" "$txt2bin" "$collnoise"; do
  [[ -x "$x" ]] || { echo "$0: $x is not an executable" >&2; exit 2; }
done
CASES=${CASES:-.}
TIME_LARGEST=${TIME_LARGEST:-0}
work="$(mktemp -d /tmp/collnoise-loggopsim-simple.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# The cases: name|schedule (a built-in algorithm and its options, or hand:NAME for a GOAL text
# below)|ranks|bytes|topology|L o g G O S (LogGOPSim's integers: ns, ns per byte, bytes). The
# hand cases are tests/engine/network/test_simple_network.cpp's, on its star and two-switch
# trees (and hand-stale: a message joins a link whose message has moved its bytes but is not yet
# polled, which LogGOPSim's asserts refuse). Sizes of 64 KiB to 1 MiB at L = 1 us make the
# network matter.
eager=2147483647  # LogGOPSim's S is an int: everything eager
cases=(
  "hand-one|hand:one|3|10000|xgft(1; 3; 1)|100 10 5 0 0 65535"
  "hand-two-into-one|hand:two|3|10000|xgft(1; 3; 1)|100 10 5 0 0 65535"
  "hand-crossing|hand:crossing|4|10000|xgft(2; 2,2; 1,1)|100 10 5 0 0 65535"
  "hand-apart|hand:apart|4|10000|xgft(2; 2,2; 1,1)|100 10 5 0 0 65535"
  "hand-held|hand:held|3|10000|xgft(1; 3; 1)|1000 100 5 0 0 65535"
  "hand-due|hand:due|3|10000|xgft(1; 3; 1)|5000 10 5 0 0 65535"
  "hand-stale|hand:stale|3|10000|xgft(1; 3; 1)|1000 10 5 0 0 65535"
  "hand-G6|hand:one|3|10000|xgft(1; 3; 1)|100 10 5 6 0 65535"
  "hand-rendezvous|hand:one|3|10000|xgft(1; 3; 1)|100 10 5 0 0 100"
  "hand-small-recdoub|recursive_doubling_allreduce|16|8|xgft(2; 4,4; 1,2)|1000 10 5 1 0 65535"
  "recdoub-16|recursive_doubling_allreduce|16|65536|xgft(2; 4,4; 1,2)|1000 200 100 0 0 $eager"
  "recdoub-16-G1|recursive_doubling_allreduce|16|65536|xgft(2; 4,4; 1,2)|1000 200 100 1 0 $eager"
  "recdoub-16-O1|recursive_doubling_allreduce|16|65536|xgft(2; 4,4; 1,2)|1000 200 100 0 1 $eager"
  "recdoub-16-rdv|recursive_doubling_allreduce|16|1048576|xgft(2; 4,4; 1,2)|1000 200 100 0 0 65535"
  "recdoub-16-2up|recursive_doubling_allreduce|16|65536|xgft(2; 4,4; 2,2)|1000 200 100 0 0 $eager"
  "recdoub-48|recursive_doubling_allreduce|48|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "recdoub-64|recursive_doubling_allreduce|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "recdoub-256|recursive_doubling_allreduce|256|1048576|xgft(3; 4,8,8; 1,4,4)|1000 200 100 0 0 $eager"
  "recdoub-256-rdv-G1|recursive_doubling_allreduce|256|1048576|xgft(3; 4,8,8; 1,4,4)|1000 200 100 1 0 65535"
  "dissemination-16|dissemination_barrier|16|65536|xgft(2; 4,4; 1,2)|1000 200 100 0 0 $eager"
  "dissemination-64|dissemination_barrier|64|65536|xgft(3; 4,4,4; 1,4,2)|1000 200 100 0 0 $eager"
  "dissemination-100|dissemination_barrier|100|65536|xgft(3; 4,4,8; 2,2,2)|1000 200 100 0 0 $eager"
  "dissemination-256-G1|dissemination_barrier|256|65536|xgft(2; 16,16; 1,8)|1000 200 100 1 0 $eager"
  "nway-dissemination-64|nway_dissemination --k 3|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "tree-barrier-64|tree_barrier|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "ring-16|ring_allreduce|16|1048576|xgft(2; 4,4; 1,2)|1000 200 100 0 0 $eager"
  "ring-64|ring_allreduce|64|1048576|xgft(2; 8,8; 1,2)|1000 200 100 0 0 $eager"
  "ring-64-seg4|ring_allreduce --segments 4|64|1048576|xgft(2; 8,8; 1,2)|1000 200 100 0 0 $eager"
  "ring-64-preposted|ring_allreduce --receives preposted|64|1048576|xgft(2; 8,8; 1,2)|1000 200 100 0 0 $eager"
  "pipelined-ring-64|pipelined_ring|64|1048576|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "binomial-bcast-16|binomial_broadcast|16|1048576|xgft(2; 4,4; 1,2)|1000 200 100 0 0 $eager"
  "binomial-bcast-256|binomial_broadcast|256|65536|xgft(3; 4,8,8; 1,4,4)|1000 200 100 0 0 $eager"
  "knomial-bcast-64|knomial_broadcast --k 4|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "binary-tree-bcast-64|binary_tree_broadcast|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "binomial-reduce-64|binomial_reduce|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "rabenseifner-64|rabenseifner_allreduce|64|1048576|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "bruck-64|bruck_allgather|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "pairwise-a2a-16|pairwise_alltoall|16|65536|xgft(2; 4,4; 1,2)|1000 200 100 0 0 $eager"
  "pairwise-a2a-64|pairwise_alltoall|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "pairwise-a2a-256|pairwise_alltoall|256|65536|xgft(2; 16,16; 1,8)|1000 200 100 0 0 $eager"
  "linear-a2a-16|linear_alltoall|16|65536|xgft(2; 4,4; 1,2)|1000 200 100 0 0 $eager"
  "linear-scatter-64|linear_scatter|64|65536|xgft(2; 8,8; 1,4)|1000 200 100 0 0 $eager"
  "linear-gather-16|linear_gather|16|65536|xgft(2; 4,4; 1,2)|1000 200 100 0 0 $eager"
  "dissemination-1024|dissemination_barrier|1024|65536|xgft(3; 8,8,16; 1,8,4)|1000 200 100 0 0 $eager"
  "binomial-bcast-1024|binomial_broadcast|1024|1048576|xgft(3; 8,8,16; 1,8,4)|1000 200 100 0 0 $eager"
  "recdoub-1024|recursive_doubling_allreduce|1024|65536|xgft(2; 32,32; 1,16)|1000 200 100 0 0 $eager"
  # The largest, last (TIME_LARGEST times it): 2 million messages of 64 KiB (the 64 MiB vector's
  # chunks), each polled twice.
  "ring-1024|ring_allreduce|1024|67108864|xgft(2; 32,32; 1,16)|1000 200 100 0 0 $eager"
)

# The hand cases' GOAL texts (rank 2 takes 10000 bytes from rank 0 and 5000 from rank 1, etc.).
hand_goal() {  # hand_goal NAME FILE
  local -a r=("" "" "" "")
  local n=3 i
  case "$1" in
    one) r[0]='l1: send 10000b to 2 tag 0'; r[2]='l1: recv 10000b from 0 tag 0' ;;
    two) r[0]='l1: send 10000b to 2 tag 0'; r[1]='l1: send 5000b to 2 tag 0'
      r[2]=$'l1: recv 10000b from 0 tag 0\nl2: recv 5000b from 1 tag 0' ;;
    crossing) n=4; r[0]='l1: send 10000b to 2 tag 0'; r[1]='l1: send 10000b to 3 tag 0'
      r[2]='l1: recv 10000b from 0 tag 0'; r[3]='l1: recv 10000b from 1 tag 0' ;;
    apart) n=4; r[0]='l1: send 10000b to 1 tag 0'; r[2]='l1: send 10000b to 3 tag 0'
      r[1]='l1: recv 10000b from 0 tag 0'; r[3]='l1: recv 10000b from 2 tag 0' ;;
    held) r[0]='l1: send 100b to 2 tag 0'
      r[1]=$'l1: calc 50\nl2: send 10000b to 2 tag 0\nl2 requires l1'
      r[2]=$'l1: recv 100b from 0 tag 0\nl2: recv 10000b from 1 tag 0' ;;
    stale) r[0]='l1: send 100b to 2 tag 0'  # out of bytes at 100, on the link until 1010
      r[1]=$'l1: calc 500\nl2: send 10000b to 2 tag 0\nl2 requires l1'
      r[2]=$'l1: recv 100b from 0 tag 0\nl2: recv 10000b from 1 tag 0' ;;
    due) r[0]='l1: send 1000b to 2 tag 0'
      r[1]=$'l1: calc 1000\nl2: send 10000b to 2 tag 0\nl2 requires l1'
      r[2]=$'l1: recv 1000b from 0 tag 0\nl2: recv 10000b from 1 tag 0' ;;
  esac
  {
    echo "num_ranks $n"
    for ((i = 0; i < n; i++)); do
      printf 'rank %d {\n' "$i"
      [[ -n "${r[i]}" ]] && printf '%s\n' "${r[i]}"
      printf '}\n'
    done
  } > "$2"
}

# Reads LogGOPSim's --verbose log on stdin and writes, as JSON: every rank's finishing time
# rebuilt from the log, what LogGOPSim printed at the end (every host up to 16 ranks, else the
# largest), the repolls, and whether the run ended with its queues empty.
cat > "$work/lgs_log.py" <<'PY'
import collections, json, re, sys

goal, L, o, g, G, O, S = sys.argv[1], *map(int, sys.argv[2:8])
sizes, rank, ranks = collections.defaultdict(set), None, 0
for line in open(goal):
    m = re.match(r"\s*num_ranks\s+(\d+)", line)
    if m:
        ranks = int(m.group(1))
    m = re.match(r"\s*rank\s+(\d+)", line)
    if m:
        rank = int(m.group(1))
    m = re.search(r"\bsend\s+(\d+)b\s+to\s+(\d+)", line)
    if m:
        sizes[(rank, int(m.group(2)))].add(int(m.group(1)))
ambiguous = sorted(k for k, v in sizes.items() if len(v) > 1)
size = {k: min(v) for k, v in sizes.items()}
finish = collections.defaultdict(int)
printed, printed_max, repolls, complete = {}, None, 0, True
FOUND = re.compile(r"\[(\d+)\] found (loclop of length|send to|recv from|msg from) (\d+),? (?:- )?t: (\d+)")
KINDS = {"loclop of length": "calc", "send to": "send", "recv from": "recv", "msg from": "msg"}
unknown_sender = False  # a rendezvous released by a receive from any source: not in the log
event = None   # (kind, host, peer or length, time) of the event being logged
pending = None  # a computation runs unless the next line says o was busy
for line in sys.stdin:
    if line.startswith("["):
        if pending:
            finish[pending[0]] = max(finish[pending[0]], pending[1])
            pending = None
        m = FOUND.match(line)
        if not m:
            event = None
            continue
        kind = KINDS[m.group(2)]
        event = (kind, int(m.group(1)), int(m.group(3)), int(m.group(4)))
        if kind == "calc":
            pending = (event[1], event[3] + event[2])
    elif line.startswith("query returned") and event and event[0] == "msg":
        repolls += int(line.split()[2]) > event[3]
    elif line.startswith("-- locop local o not available"):
        pending = None
    elif line.startswith("-- satisfy local irequires") and event and event[0] == "send":
        _, h, to, t = event
        finish[h] = max(finish[h], t + o + (size[(h, to)] - 1) * O)
    elif line.startswith("-- msg o,g available") and event:
        _, h, frm, t = event
        s = size[(frm, h)]
        finish[h] = max(finish[h], t + o + max((s - 1) * O, (s - 1) * G))
    elif line.startswith("-- satisfy remote requires") and event:
        # A rendezvous sender released at this event's time (the host printed is the sender).
        sender = int(re.search(r"host (-?\d+)", line).group(1))
        if sender < 0:
            unknown_sender = True
        else:
            finish[sender] = max(finish[sender], event[3])
    elif line.startswith("Host "):
        h, t = line[5:].split(":")
        printed[int(h)] = int(t)
    elif line.startswith("Maximum finishing time"):
        printed_max = int(re.search(r": (\d+)", line).group(1))
    elif "queue on host" in line:
        complete = False
if pending:
    finish[pending[0]] = max(finish[pending[0]], pending[1])
json.dump({"finish": [finish[r] for r in range(ranks)], "printed": printed,
           "printed_max": printed_max, "repolls": repolls, "complete": complete,
           "ambiguous": unknown_sender or (len(ambiguous) > 0 and (G > 0 or O > 0))}, sys.stdout)
PY

# One table row from both sides' results.
cat > "$work/row.py" <<'PY'
import importlib.util, json, sys

name, n, nbytes, lgs_file, rc, err, summary_file, fields_py = sys.argv[1:9]
rc = int(rc)
# The summary fields by their declarations (the generated module alone: no h5py needed).
spec = importlib.util.spec_from_file_location("fields", fields_py)
fields = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fields)
def ns(x):
    return str(int(round(x))) if abs(x - round(x)) < 1e-6 else f"{x:.3f}"
def cell(*xs):
    return "| " + " | ".join(str(x) for x in xs) + " |"
ours = json.load(open(summary_file))["points"][0]
mine = [x * 1e9 for x in ours[fields.noiseless_finish]]
mine_max = ours[fields.noiseless_completion] * 1e9
mine_repolls = ours[fields.noiseless_network_repolls]
if rc != 0:
    what = {139: "SIGSEGV", 134: "SIGABRT"}.get(rc, f"exit {rc}")
    if rc == 134 and err:
        what += f", assertion at {err}"
    note = f"LogGOPSim crashed ({what})"
    print(cell(name, n, nbytes, "crash", ns(mine_max), "-", "-", f"-/{mine_repolls}", note))
    sys.exit(0)
lgs = json.load(open(lgs_file))
if not lgs["complete"]:
    print(cell(name, n, nbytes, "incomplete", ns(mine_max), "-", "-", "-", "LogGOPSim: queues not empty"))
    sys.exit(0)
theirs = lgs["finish"]
theirs_max = max(theirs)
notes = []
printed = {int(k): v for k, v in lgs["printed"].items()}
if printed and any(printed.get(r) != theirs[r] for r in range(len(theirs))):
    notes.append("log rebuild differs from LogGOPSim's Host lines")
if lgs["printed_max"] is not None and lgs["printed_max"] != theirs_max:
    notes.append("log rebuild differs from LogGOPSim's maximum")
if printed:
    theirs_max = max(printed.values())
if lgs["printed_max"] is not None:
    theirs_max = lgs["printed_max"]
if lgs["ambiguous"]:
    notes.append("the log does not say every rank's time (sizes or senders not known)")
if len(mine) != len(theirs):
    notes.append(f"{len(theirs)} ranks in the log, {len(mine)} in collnoise")
diff = max((abs(a - b) for a, b in zip(theirs, mine)), default=0.0)
# collnoise's seconds back in ns are LogGOPSim's integers to within the seconds' rounding
# (1e-16 relative, under 1e-8 ns here).
equal = diff < 1e-6 and abs(theirs_max - mine_max) < 1e-6 and not notes
if lgs["repolls"] != mine_repolls:
    notes.append("the network's polls differ")
if len(theirs) <= 4:
    notes.append("LogGOPSim " + " ".join(map(str, theirs)) + "; collnoise " +
                 " ".join(ns(x) for x in mine))
print(cell(name, n, nbytes, theirs_max, ns(mine_max), f"{diff:.3g}", "yes" if equal else "NO",
           f"{lgs['repolls']}/{mine_repolls}", "; ".join(notes)))
PY

echo "LogGOPSim: $lgs"
echo "collnoise: $collnoise ($("$collnoise" --version 2>/dev/null | head -1))"
echo
echo "| case | ranks | bytes | LogGOPSim max (ns) | collnoise max (ns) | largest per-rank difference (ns) | equal | repolls (LogGOPSim/collnoise) | notes |"
echo "|---|---|---|---|---|---|---|---|---|"
last=""
for spec in "${cases[@]}"; do
  IFS='|' read -r name source n nbytes topology params <<< "$spec"
  [[ "$name" =~ $CASES ]] || continue
  read -r L o g G O S <<< "$params"
  d="$work/$name"
  mkdir -p "$d"
  if [[ "$source" == hand:* ]]; then
    hand_goal "${source#hand:}" "$d/x.goal"
  else
    read -r -a algorithm <<< "$source"  # the algorithm and its options
    "$collnoise" schedule "${algorithm[@]}" --ranks "$n" --bytes "$nbytes" --goal "$d/x.goal" \
      > /dev/null
  fi
  python3 "$dot_tree" "$topology" --out "$d/t.dot"
  "$txt2bin" -i "$d/x.goal" -o "$d/x.bin" > /dev/null
  # In a subshell whose own stderr is dropped: a crash is reported in the table, not by bash.
  (
    set +e
    "$lgs" -f "$d/x.bin" -L "$L" -o "$o" -g "$g" -G "$G" -O "$O" -S "$S" -n simple \
      --network-file "$d/t.dot" -v 2> "$d/lgs.err"
    echo $? > "$d/lgs.rc"
  ) 2> /dev/null | python3 "$work/lgs_log.py" "$d/x.goal" "$L" "$o" "$g" "$G" "$O" "$S" \
    > "$d/lgs.json"
  # The assertion or error LogGOPSim printed, if any, short.
  err=$(grep -o "[A-Za-z_.]*\.hpp:[0-9]*\|[A-Za-z_.]*\.cpp:[0-9]*" "$d/lgs.err" | head -1 || true)
  cat > "$d/run.toml" <<TOML
name = "$name"
seed = 1
samples = 2
[collective]
kind = "schedule"
goal = "x.goal"
[loggops]
L = "${L}ns"
o = "${o}ns"
g = "${g}ns"
G = "${G}ns/B"
O = "${O}ns/B"
S = $S
[network]
topology = "$topology"
contention = "simple"
TOML
  "$collnoise" run "$d/run.toml" --out "$d/c.h5" --force --quiet --threads 1
  "$collnoise" summary "$d/c.h5" --json > "$d/summary.json"
  python3 "$work/row.py" "$name" "$n" "$nbytes" "$d/lgs.json" "$(cat "$d/lgs.rc")" "$err" \
    "$d/summary.json" "$(pwd)/python/collnoise/fields.py"
  last="$spec"
  rm -f "$d/x.bin" "$d/c.h5"
done

if [[ "$TIME_LARGEST" == 1 && -n "$last" ]]; then
  IFS='|' read -r name source n nbytes topology params <<< "$last"
  read -r L o g G O S <<< "$params"
  d="$work/$name"
  echo
  echo "Timings of $name (no log; /usr/bin/time -f \"%e s %M KB\"):"
  /usr/bin/time -f "  txt2bin: %e s %M KB" "$txt2bin" -i "$d/x.goal" -o "$d/x.bin" > /dev/null
  /usr/bin/time -f "  LogGOPSim: %e s %M KB" "$lgs" -f "$d/x.bin" -L "$L" -o "$o" -g "$g" \
    -G "$G" -O "$O" -S "$S" -n simple --network-file "$d/t.dot" > "$d/lgs.out" || true
  grep -h "Maximum\|PERFORMANCE" "$d/lgs.out" | sed 's/^/    /'
  /usr/bin/time -f "  collnoise (samples = 2, one thread): %e s %M KB" "$collnoise" run \
    "$d/run.toml" --out "$d/c.h5" --force --quiet --threads 1
fi
