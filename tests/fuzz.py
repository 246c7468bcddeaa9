"""Fuzz tests of the collnoise command: hostile run files and damaged result files.

    fuzz.py BINARY WORKDIR [--mutations N] [--runs N] [--flips N] [--seed S]

1. Run files: random mutations of the shipped run files (extreme, negative, non-finite and
   out-of-range numbers, wrong types, unknown or missing keys, cut lines, flipped characters),
   each checked with --validate-only (milliseconds each), and some of them run for real with a
   handful of samples. A mutation must give exit code 0 or 2 (never 1: an error in the input is
   the input's fault); exit 2 must come with exactly one line 'collnoise: error: ...'; no signal,
   no sanitizer report, no hang (a time limit), and a successful run must give a summary that is
   valid JSON (no NaN or Infinity tokens) in which every null carries a reason.
2. Files: single-bit flips at fixed offsets of a small result file and of a checkpoint, read by
   summary, verify, merge and --resume: each must be refused with exit code 2 naming the file
   (the checksum covers every byte); with --no-verify it may be read, refused, or fail with a
   one-line message (unverified data may hold any numbers), but never crash.
3. Input data files: random mutations of GOAL schedules (as collnoise and Schedgen write them)
   and of Netgauge files (a detour trace, message latencies, LogGP parameters), read through a
   run file with --validate-only (which parses them and simulates the schedule once): exit 0 or
   2 only, one error line, naming the file at fault; no signal, no hang.
4. The edges of a batch job, scenario by scenario: special files (a directory, a FIFO,
   /dev/zero) named as data files, refused at once naming the path; data files edited between
   the sittings of a resumed run and between the parts of a job array, refused naming the file;
   values read from files at and beyond their documented ranges; outputs that would replace an
   input or a checkpoint, refused and the file intact; and SIGTERM in every phase that computes
   (reading a GOAL file, the noiseless run, sampling, `collnoise schedule --goal`), acted on
   within a generous bound (the sanitized binary is several times slower) with no temporary
   left behind.
5. The newer commands' inputs: mutated measured-time files (lists and per-rank tables) read by
   `compare`, mutated bound expressions read by `run --validate-only`, and random values of
   `timeline`'s and `compare`'s arguments (empty, negative, too large, special files, the
   command's own inputs as outputs, with and without --force). Each must exit 0 or 2 with one
   printable error line of bounded length naming what is at fault, never change an input, and
   leave no temporary.
The seed fixes every mutation: a failure is reproduced by running the same command again.
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = os.path.join(HERE, "..", "runs")
TIME_LIMIT = 120  # seconds for one command: every limit here is a hang
SANITIZER_MARKS = ("runtime error:", "AddressSanitizer", "LeakSanitizer", "terminate called")

EXTREME_NUMBERS = [
    "0", "-1", "1", "-0.0", "1e300", "-1e300", "1e-300", "1e308", "nan", "inf", "-inf",
    "9223372036854775807", "-9223372036854775808", "4294967296", "0.5", "2", "1e6", "1e7",
    "1e-9", "1e-12", "1.0000001", "0.999999", "3", "64", "1e12", "18446744073709551615",
]
RANDOM_STRINGS = [
    '"exponential"', '"pareto"', '"bernoulli"', '"lognormal"', '"weibull"', '"gamma"',
    '"uniform"', '"none"', '"empirical"', '"mixture"', '"periodic"', '"poisson"', '"trace"',
    '"tree_barrier"', '"butterfly"', '"dissemination"', '"binomial_broadcast"',
    '"binomial_reduce"', '"per_rank"', '"per_level"', '"reference"', '""', '"x"',
    '"xgft(2; 2,2; 1,1)"', '"3-ary 2-cube"', '"torus(0, 0)"', '"xgft(0;;)"', '"nhalf"',
    '"isoefficiency"', '"sample"', '"granularity"', '"noise"', '"constant"', '"linear_m"',
    '"random"', '"proportional"', '"absolute"', '"log"', '"linear"', '"us"', '"ns"',
    # Values with units (docs/run-files.md): good, out of range, inexact, unknown.
    '"2.5us"', '"100 ns"', '"6.67ms"', '"64KiB"', '"0.4ns/B"', '"-1ms"', '"1e400s"', '"1.5B"',
    '"2 xs"',
]
EXTRA_LINES = [
    "bogus = 1", "[noise]\nlaw = \"pareto\"\na = 1.0", "samples = 0", "samples = -5",
    "chunk_size = 0", "seed = -1", "confidence = 1.5", "[output]\nhistogram_bins = 0",
    "[precision]\nmean_relative_half_width = 0.01\nmax_samples = 10",
    "[collective]\nN = \"123456789012345678901234567890123456789\"",
    "[sweep]\nN = []", "[[case]]\n\"noise.law\" = \"mixture\"", "kind = \"nhalf\"",
    "[noise]\nlaw = \"empirical\"\nfile = \"/dev/null\"",
    "[noise]\nlaw = \"trace\"\nfile = \"/nonexistent/trace\"",
]


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        value_lines = [i for i, l in enumerate(lines) if "=" in l and not l.strip().startswith("#")]
        if kind < 0.45 and value_lines:
            i = rng.choice(value_lines)
            key, _, value = lines[i].partition("=")
            new = rng.choice(RANDOM_STRINGS if '"' in value and rng.random() < 0.7
                             else EXTREME_NUMBERS)
            lines[i] = key + "= " + new
        elif kind < 0.6 and value_lines:
            i = rng.choice(value_lines)
            key, _, value = lines[i].partition("=")
            lines[i] = key + "= " + rng.choice(EXTREME_NUMBERS + RANDOM_STRINGS +
                                               ["[]", "[1, -1]", "true", "[\"a\"]", "{}"])
        elif kind < 0.7 and lines:
            del lines[rng.randrange(len(lines))]
        elif kind < 0.8:
            lines.append(rng.choice(EXTRA_LINES))
        elif kind < 0.9 and lines:
            i = rng.randrange(len(lines))
            if lines[i]:
                j = rng.randrange(len(lines[i]))
                lines[i] = lines[i][:j] + chr(rng.randrange(32, 127)) + lines[i][j + 1:]
        else:
            cut = rng.randrange(max(1, len("\n".join(lines))))
            return "\n".join(lines)[:cut]
    return "\n".join(lines)


def small_run(text):
    """A mutated run file made cheap to run for real: few samples, small sizes."""
    text = re.sub(r"(?m)^(samples|replications)\s*=.*$", r"\1 = 3", text)
    text = re.sub(r"(?m)^check_samples\s*=.*$", "check_samples = 200", text)
    text = re.sub(r"(?m)^log2_N\s*=\s*\[.*\]$", "log2_N = [1, 3, 6]", text)
    text = re.sub(r"(?m)^log2_N\s*=\s*2\d\s*$", "log2_N = 6", text)
    text = re.sub(r"(?m)^levels\s*=\s*\[[^\]]*\]?$", "levels = [1, 5, 30]", text, flags=re.S)
    # The fat trees of runs/contention-allreduce-*.toml, up to 2^21 endpoints, cost every sample
    # a placement over all of them: 2 pods (2048 endpoints) hold 64 ranks and their background.
    text = re.sub(r'(?m)^(topology\s*=\s*"xgft\(3; 32,32,)\d{3,}(; 1,32,8\)")', r"\g<1>2\2", text)
    return text


class Failure(Exception):
    pass


def run(binary, args, cwd, timeout=TIME_LIMIT):
    try:
        done = subprocess.run([binary] + args, cwd=cwd, capture_output=True, text=True,
                              timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        raise Failure(f"hang: {' '.join(args)} ran over {timeout} s")
    output = done.stdout + done.stderr
    if done.returncode < 0:
        raise Failure(f"signal {-done.returncode} ({signal.Signals(-done.returncode).name}): "
                      f"{' '.join(args)}\n{output[-2000:]}")
    for mark in SANITIZER_MARKS:
        if mark in output:
            raise Failure(f"'{mark}' in the output of {' '.join(args)}:\n{output[-3000:]}")
    return done.returncode, done.stdout, done.stderr


def check_error_line(code, stderr, what):
    errors = [l for l in stderr.splitlines() if l.startswith("collnoise: error:")]
    if code == 2 and len(errors) != 1:
        raise Failure(f"{what}: exit 2 with {len(errors)} error lines:\n{stderr}")
    if code == 1:
        raise Failure(f"{what}: exit 1 (a failure) on bad input:\n{stderr}")


def check_json(text, what):
    def refuse(token):
        raise Failure(f"{what}: summary --json holds the token {token}")
    document = json.loads(text, parse_constant=refuse)
    for point in document["points"]:
        for key, value in point.items():
            if value is None and key + "_reason" not in point:
                raise Failure(f"{what}: {key} is null without a reason")
        for key, value in point["params"].items():
            if value is None and key + "_reason" not in point["params"]:
                raise Failure(f"{what}: params.{key} is null without a reason")


def fuzz_run_files(binary, work, mutations, runs, rng):
    sources = [(p, open(p).read()) for p in sorted(glob.glob(os.path.join(RUNS, "*.toml")))]
    failures = []
    real_every = max(1, mutations // max(runs, 1)) if runs else 0
    for k in range(mutations):
        path, text = rng.choice(sources)
        mutated = mutate(text, rng)
        name = f"m{k}.toml"
        with open(os.path.join(work, name), "w") as f:
            f.write(mutated)
        what = f"mutation {k} of {os.path.basename(path)}"
        try:
            code, _, stderr = run(binary, ["run", name, "--validate-only"], work)
            if code not in (0, 2):
                raise Failure(f"{what}: --validate-only exited {code}:\n{stderr}")
            check_error_line(code, stderr, what)
            # N_1/2 analyses of degenerate laws (f near 0) integrate for minutes: validated only.
            analysis = re.search(r'(?m)^kind\s*=\s*"nhalf"', mutated) is not None
            if code == 0 and real_every and k % real_every == 0 and not analysis:
                small = small_run(mutated)
                with open(os.path.join(work, name), "w") as f:
                    f.write(small)
                code, _, stderr = run(binary, ["run", name, "--out", f"m{k}.h5", "--quiet",
                                               "--force", "--no-checkpoint",
                                               "--max-core-hours", "0.003"], work)
                if code not in (0, 2):
                    raise Failure(f"{what}: the run exited {code}:\n{stderr}")
                check_error_line(code, stderr, what + " (run)")
                if code == 0:
                    code, out, stderr = run(binary, ["summary", f"m{k}.h5", "--json"], work)
                    if code != 0:
                        raise Failure(f"{what}: summary exited {code}:\n{stderr}")
                    check_json(out, what)
                    os.remove(os.path.join(work, f"m{k}.h5"))
        except Failure as e:
            failures.append(str(e))
            shutil.copy(os.path.join(work, name), os.path.join(work, f"failed-{name}"))
            continue
        os.remove(os.path.join(work, name))
    return failures


SMALL_RUN = """name = "fuzz-small"
seed = 3
samples = 64
chunk_size = 16
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 1.0e-6
[noise]
law = "pareto"
a = 2.5
f = 0.01
[sweep]
N = [7, 300]
[output]
raw_samples = true
histogram_bins = 32
"""


def flip(data, bit):
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def fuzz_files(binary, work, flips, rng):
    failures = []
    with open(os.path.join(work, "small.toml"), "w") as f:
        f.write(SMALL_RUN)
    run(binary, ["run", "small.toml", "--out", "small.h5", "--force", "--quiet",
                 "--no-checkpoint"], work)
    run(binary, ["run", "small.toml", "--out", "part.h5", "--force", "--quiet",
                 "--no-checkpoint", "--part", "1/2"], work)
    run(binary, ["run", "small.toml", "--out", "part2.h5", "--force", "--quiet",
                 "--no-checkpoint", "--part", "2/2"], work)
    code, _, _ = run(binary, ["run", "small.toml", "--out", "stopped.h5", "--force", "--quiet",
                              "--interrupt-after-chunks", "3"], work)
    if code != 3 or not os.path.exists(os.path.join(work, "stopped.h5.ckpt")):
        return [f"could not make a checkpoint to damage (exit {code})"]
    result = open(os.path.join(work, "small.h5"), "rb").read()
    part = open(os.path.join(work, "part.h5"), "rb").read()
    checkpoint = open(os.path.join(work, "stopped.h5.ckpt"), "rb").read()
    targets = [
        ("result", result, "damaged.h5", [["summary", "damaged.h5", "--json"],
                                          ["verify", "damaged.h5"]]),
        ("part", part, "damaged.h5", [["merge", "damaged.h5", "part2.h5", "--out", "merged.h5",
                                       "--force", "--quiet"]]),
        ("checkpoint", checkpoint, "damaged.ckpt",
         [["run", "small.toml", "--out", "resumed.h5", "--force", "--quiet", "--resume",
           "damaged.ckpt", "--checkpoint", "resumed.ckpt"]]),
    ]
    per_target = max(1, flips // len(targets))
    for label, data, name, commands in targets:
        bits = sorted(rng.sample(range(len(data) * 8), min(per_target, len(data) * 8)))
        for bit in bits:
            with open(os.path.join(work, name), "wb") as f:
                f.write(flip(data, bit))
            for args in commands:
                what = f"{label} with bit {bit} flipped, {args[0]}"
                try:
                    code, _, stderr = run(binary, args, work)
                    if code != 2 or name not in stderr:
                        raise Failure(f"{what}: exit {code}, expected 2 naming {name}:\n{stderr}")
                    code, _, stderr = run(binary, args + ["--no-verify"] if args[0] != "verify"
                                          else args, work)
                    if args[0] != "verify" and code not in (0, 1, 2):
                        raise Failure(f"{what}, --no-verify: exit {code}:\n{stderr}")
                except Failure as e:
                    failures.append(f"{what}: {e}")
    return failures


GOAL_TOKENS = [
    "send", "recv", "calc", "requires", "irequires", "rank", "num_ranks", "{", "}", ":", "to",
    "from", "tag", "cpu", "nic", "-1", "0", "1", "99999999999999999999", "-5", "4294967295",
    "1b", "0b", "18446744073709551616b", "l1", "l2", "l999", "//", "/*", "*/", "\t", "x:",
]
NETGAUGE_FILES = {
    "trace.txt": "# Netgauge noise\n# start duration\n0\t1000\n5000\t200\n9000\t300\n"
                 "# trailer\n# header 2\n0\t400\n7000\t100\n",
    "lat.out": "#size\trtt\n1\t2.5\n1\t3.0\n1\t2.7\n#size\trtt\n8\t3.1\n8\t3.3\n",
    "loggp.out": "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
                 "1 16 6 30 120 3 0.4 0.6 -nan -nan 0\n"
                 "1025 16 6 40 130 3 0.9 1.1 1 0.001 0\n",
}


def mutate_data(text, rng, tokens):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.25 and lines:
            i = rng.randrange(len(lines))
            words = lines[i].split()
            if words:
                words[rng.randrange(len(words))] = rng.choice(tokens)
                lines[i] = " ".join(words)
        elif kind < 0.4 and lines:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind < 0.55 and lines:
            del lines[rng.randrange(len(lines))]
        elif kind < 0.7 and lines:
            i = rng.randrange(len(lines))
            if lines[i]:
                j = rng.randrange(len(lines[i]))
                lines[i] = lines[i][:j] + chr(rng.randrange(1, 256)) + lines[i][j + 1:]
        elif kind < 0.85 and lines:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            cut = rng.randrange(max(1, len("\n".join(lines))))
            return "\n".join(lines)[:cut]
    return "\n".join(lines)


def fuzz_data_files(binary, work, mutations, rng):
    """Mutated GOAL and Netgauge files, read through a run file."""
    failures = []
    folder = os.path.join(work, "data")
    os.makedirs(folder, exist_ok=True)
    goals = []
    for algorithm, ranks in [("recursive_doubling_allreduce", 6), ("binomial_broadcast", 5),
                             ("ring_allreduce", 4), ("tree_barrier", 7)]:
        path = os.path.join(folder, algorithm + ".goal")
        code, _, err = run(binary, ["schedule", algorithm, "--ranks", str(ranks), "--goal", path,
                                    "--force"], folder)
        if code != 0:
            return [f"collnoise schedule {algorithm} failed: {err}"]
        with open(path, encoding="latin-1") as f:
            goals.append(f.read())
    for m in range(mutations):
        which = rng.random()
        if which < 0.7:
            name, text = "m.goal", mutate_data(rng.choice(goals), rng, GOAL_TOKENS)
            table = '[collective]\nkind = "schedule"\ngoal = "m.goal"\n'
        else:
            base = rng.choice(sorted(NETGAUGE_FILES))
            name = "m-" + base
            text = mutate_data(NETGAUGE_FILES[base], rng, EXTREME_NUMBERS + ["#", "-nan", "x"])
            table = '[collective]\nkind = "schedule"\nalgorithm = "dissemination_barrier"\nN = 8\n'
            if base == "trace.txt":
                table += '[noise]\nlaw = "trace"\nfile = "m-trace.txt"\nunit = "ns"\n'
                table += f"measurement = {rng.choice([0, 1, 2])}\n"
            elif base == "lat.out":
                table += '[latency]\nfile = "m-lat.out"\n'
            else:
                table += '[loggops]\nfile = "m-loggp.out"\n'
        with open(os.path.join(folder, name), "w", encoding="latin-1") as f:
            f.write(text)
        with open(os.path.join(folder, "m.toml"), "w") as f:
            f.write('name = "m"\nseed = 1\nsamples = 3\n' + table)
        what = f"data mutation {m} ({name})"
        try:
            code, _, err = run(binary, ["run", "m.toml", "--validate-only"], folder)
            if code not in (0, 2):
                raise Failure(f"{what}: exit {code}:\n{err}")
            check_error_line(code, err, what)
            if code == 2 and name not in err and "m.toml" not in err:
                raise Failure(f"{what}: the error does not name the file:\n{err}")
        except Failure as e:
            failures.append(str(e) + "\n--- " + name + " ---\n" + text[:2000])
    return failures


SIGNAL_BOUND = 10  # seconds from SIGTERM to exit (the promise is 2 s; the sanitized binary is slow)
EDGE_TRACE = "# start duration\n0\t1000\n5000\t200\n9000\t300\n20000\t800\n"
EDGE_RUN = """name = "edge"
seed = 5
samples = 256
chunk_size = 16
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 64
[noise]
law = "trace"
file = "trace.txt"
unit = "ns"
[output]
raw_samples = true
"""


def expect_refusal(binary, args, cwd, names, what, timeout=30):
    """The command must exit 2 with one error line naming each of `names`."""
    code, _, err = run(binary, args, cwd, timeout=timeout)
    check_error_line(code, err, what)
    if code != 2:
        raise Failure(f"{what}: exit {code}, expected 2:\n{err}")
    for name in names:
        if name not in err:
            raise Failure(f"{what}: the error does not name '{name}':\n{err}")


def stop_in_phase(binary, args, cwd, delay, what):
    """Sends SIGTERM `delay` s after the start; the command must end within SIGNAL_BOUND with
    exit 3 (or have finished before the signal, exit 0) and leave no temporary."""
    proc = subprocess.Popen([binary] + args, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace")
    time.sleep(delay)
    if proc.poll() is not None:
        raise Failure(f"{what}: ended (exit {proc.returncode}) before the signal at {delay} s: "
                      "the phase is too short to test here")
    proc.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    try:
        out, err = proc.communicate(timeout=SIGNAL_BOUND)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise Failure(f"{what}: still running {SIGNAL_BOUND} s after SIGTERM")
    took = time.monotonic() - sent
    if proc.returncode != 3:
        raise Failure(f"{what}: exit {proc.returncode} after SIGTERM, expected 3:\n{err[-2000:]}")
    for mark in SANITIZER_MARKS:
        if mark in out + err:
            raise Failure(f"{what}: '{mark}' after SIGTERM:\n{err[-3000:]}")
    left = [f for f in os.listdir(cwd) if ".tmp-" in f]
    if left:
        raise Failure(f"{what}: temporaries left after SIGTERM: {left}")
    return took


def edge_special_files(binary, folder):
    os.mkdir(os.path.join(folder, "a-directory"))
    os.mkfifo(os.path.join(folder, "a-fifo"))
    tables = {
        "GOAL": '[collective]\nkind = "schedule"\ngoal = "{}"\n',
        "trace": '[collective]\nkind = "schedule"\nalgorithm = "dissemination_barrier"\nN = 8\n'
                 '[noise]\nlaw = "trace"\nfile = "{}"\nunit = "ns"\n',
        "LogGP": '[collective]\nkind = "schedule"\nalgorithm = "dissemination_barrier"\nN = 8\n'
                 '[loggops]\nfile = "{}"\n',
        "samples": '[collective]\nkind = "tree_barrier"\nN = 7\nw = 1e-3\n'
                   '[noise]\nlaw = "empirical"\nfile = "{}"\n',
    }
    failures = []
    for role, table in tables.items():
        for special in ("a-directory", "a-fifo", "/dev/zero"):
            with open(os.path.join(folder, "s.toml"), "w") as f:
                f.write('name = "s"\nseed = 1\nsamples = 3\n' + table.format(special))
            try:
                expect_refusal(binary, ["run", "s.toml", "--validate-only"], folder, [special],
                               f"{special} as the {role} file", timeout=20)
            except Failure as e:
                failures.append(str(e))
    return failures


def edge_edited_data(binary, folder):
    """A trace edited between sittings, and between the parts of a job array."""
    def write(name, text):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    write("trace.txt", EDGE_TRACE)
    write("edge.toml", EDGE_RUN)
    failures = []
    try:
        code, _, err = run(binary, ["run", "edge.toml", "--out", "edited.h5", "--quiet",
                                    "--interrupt-after-chunks", "2"], folder)
        if code != 3:
            raise Failure(f"could not stop a run to resume (exit {code}):\n{err}")
        write("trace.txt", EDGE_TRACE.replace("800", "900"))
        expect_refusal(binary, ["run", "edge.toml", "--out", "edited.h5", "--quiet", "--resume",
                                "edited.h5.ckpt"], folder, ["trace.txt"],
                       "a trace edited between sittings")
        if not os.path.exists(os.path.join(folder, "edited.h5.ckpt")):
            raise Failure("a trace edited between sittings: the checkpoint is gone")
    except Failure as e:
        failures.append(str(e))
    try:
        write("trace.txt", EDGE_TRACE)
        run(binary, ["run", "edge.toml", "--out", "p1.h5", "--quiet", "--no-checkpoint",
                     "--part", "1/2"], folder)
        write("trace.txt", EDGE_TRACE.replace("800", "900"))
        run(binary, ["run", "edge.toml", "--out", "p2.h5", "--quiet", "--no-checkpoint",
                     "--part", "2/2"], folder)
        expect_refusal(binary, ["merge", "p1.h5", "p2.h5", "--out", "merged.h5", "--quiet"],
                       folder, ["trace.txt"], "parts sampled on different traces")
        before = open(os.path.join(folder, "trace.txt"), "rb").read()
        expect_refusal(binary, ["merge", "p1.h5", "p2.h5", "--out", "trace.txt", "--force"],
                       folder, ["trace.txt"], "merge --out onto a data file")
        if open(os.path.join(folder, "trace.txt"), "rb").read() != before:
            raise Failure("merge --out onto a data file: the trace was changed")
    except Failure as e:
        failures.append(str(e))
    return failures


def edge_outputs(binary, folder):
    """A checkpoint path that holds a result, and a run that finds its own checkpoint."""
    failures = []
    try:
        run(binary, ["run", "edge.toml", "--out", "valuable.h5", "--quiet", "--no-checkpoint"],
            folder)
        before = open(os.path.join(folder, "valuable.h5"), "rb").read()
        for force in ([], ["--force"]):
            expect_refusal(binary, ["run", "edge.toml", "--out", "other.h5", "--quiet",
                                    "--checkpoint", "valuable.h5"] + force, folder,
                           ["valuable.h5"], "--checkpoint naming a result " + " ".join(force))
        if open(os.path.join(folder, "valuable.h5"), "rb").read() != before:
            raise Failure("--checkpoint naming a result: the result was changed")
        code, _, err = run(binary, ["run", "edge.toml", "--out", "again.h5", "--quiet",
                                    "--interrupt-after-chunks", "3"], folder)
        if code != 3:
            raise Failure(f"could not stop a run (exit {code}):\n{err}")
        kept = open(os.path.join(folder, "again.h5.ckpt"), "rb").read()
        expect_refusal(binary, ["run", "edge.toml", "--out", "again.h5", "--quiet"], folder,
                       ["again.h5.ckpt", "--resume"], "a rerun that finds its own checkpoint")
        if open(os.path.join(folder, "again.h5.ckpt"), "rb").read() != kept:
            raise Failure("a rerun that finds its own checkpoint: the checkpoint was changed")
    except Failure as e:
        failures.append(str(e))
    return failures


def edge_values_from_files(binary, folder):
    """LogGP values and GOAL sizes at and beyond their documented ranges."""
    loggp = ("# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
             "1 16 6 30 120 {L} 0.4 0.6 1 0.001 0\n")
    goal = "num_ranks 2\nrank 0 {{\nl1: send {size}b to 1 tag 0\n}}\nrank 1 {{\n" \
           "l1: recv {size}b from 0 tag 0\n}}\n"
    cases = [
        ("loggp.out", loggp.format(L="1e300"), '[loggops]\nfile = "loggp.out"\n', False),
        ("loggp.out", loggp.format(L="inf"), '[loggops]\nfile = "loggp.out"\n', False),
        ("loggp.out", loggp.format(L="3"), '[loggops]\nfile = "loggp.out"\n', True),
        ("big.goal", goal.format(size=2 ** 64 - 1), None, False),
        ("big.goal", goal.format(size=2 ** 41), None, False),
        ("big.goal", goal.format(size=2 ** 20), None, True),
    ]
    failures = []
    for name, text, table, accepted in cases:
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
        if table is None:
            body = f'[collective]\nkind = "schedule"\ngoal = "{name}"\n'
        else:
            body = ('[collective]\nkind = "schedule"\nalgorithm = "dissemination_barrier"\n'
                    'N = 8\n' + table)
        with open(os.path.join(folder, "v.toml"), "w") as f:
            f.write('name = "v"\nseed = 1\nsamples = 3\n' + body)
        what = f"{name} holding {text.split()[-12] if table else text.split()[7]}"
        try:
            if accepted:
                code, _, err = run(binary, ["run", "v.toml", "--validate-only"], folder)
                if code != 0:
                    raise Failure(f"{what}: refused at a value within range:\n{err}")
            else:
                expect_refusal(binary, ["run", "v.toml", "--validate-only"], folder, [name], what)
        except Failure as e:
            failures.append(str(e))
    return failures


def edge_signals(binary, folder):
    """SIGTERM in each phase that computes."""
    failures = []
    big = os.path.join(folder, "big-gather.goal")
    code, _, err = run(binary, ["schedule", "linear_gather", "--ranks", "65536", "--goal", big,
                                "--force"], folder, timeout=600)
    if code != 0:
        return [f"could not write a GOAL file to read: {err}"]
    with open(os.path.join(folder, "goal.toml"), "w") as f:
        f.write('name = "g"\nseed = 1\nsamples = 1000\n[collective]\nkind = "schedule"\n'
                'goal = "big-gather.goal"\n')
    with open(os.path.join(folder, "long.toml"), "w") as f:
        f.write('name = "long"\nseed = 1\nsamples = 100000\nchunk_size = 64\n'
                '[collective]\nkind = "schedule"\nalgorithm = "dissemination_barrier"\n'
                'N = 4096\n[noise]\nlaw = "periodic"\nP = 1e-3\nD = 2.5e-5\n')
    phases = [
        ("reading a GOAL file", ["run", "goal.toml", "--out", "g.h5", "--force", "--quiet"], 0.5),
        ("sampling", ["run", "long.toml", "--out", "l.h5", "--force", "--quiet"], 2.0),
        ("collnoise schedule --goal", ["schedule", "pairwise_alltoall", "--ranks", "2048",
                                       "--goal", "a2a.goal", "--force"], 1.0),
    ]
    for what, args, delay in phases:
        try:
            stop_in_phase(binary, args, folder, delay, "SIGTERM while " + what)
        except Failure as e:
            failures.append(str(e))
    return failures


def fuzz_batch_edges(binary, work):
    """Scenario checks of the edges of a batch job (see the module's documentation, 4)."""
    folder = os.path.join(work, "edges")
    os.makedirs(folder, exist_ok=True)
    # Each check with the number of cases it holds (for the closing count).
    checks = [(edge_special_files, 12), (edge_edited_data, 3), (edge_outputs, 4),
              (edge_values_from_files, 6), (edge_signals, 3)]
    failures = []
    for check, _ in checks:
        try:
            failures += check(binary, folder)
        except Failure as e:
            failures.append(f"{check.__name__}: {e}")
    return failures, sum(cases for _, cases in checks)



# The edges' run, smaller: a result the newer commands read.
NEW_RUN = (EDGE_RUN.replace('name = "edge"', 'name = "cmd"').replace("samples = 256", "samples = 24")
           .replace("chunk_size = 16", "chunk_size = 8").replace("N = 64", "N = 8"))
MEASURED_LIST = "12.5\n13\n# a comment\n14.25 # a note\n\n11.0\n"
MEASURED_TABLE = ("#MessageSize " + " ".join(f"Rank{r}Time(us)" for r in range(8)) + " \n" +
                  "".join("8 " + " ".join(f"{1.0 + 0.1 * (r + i):.2f}" for r in range(8)) + " \n"
                          for i in range(6)))
MEASURED_TOKENS = EXTREME_NUMBERS + [
    "#", "#MessageSize", "Rank0Time(us)", "Rank0Time(ms)", "x", "-0", "1e309", "0x10",
    "\x1b[31m", "\x00", "\x07", "\u00e9", "x" * 5000, "12.5.5", "+3", "1_000",
]
BOUND_TOKENS = [
    "collective_N", "noiseless_completion", "loggops_L", "loggops_o", "mean", "x", "_pi", "_e",
    "1", "0", "2.5e-6", "1e308", "-1", "nan", "inf", "+", "-", "*", "/", "^", "=", "+=", "-=",
    "*=", "/=", ",", "(", ")", "?", ":", "<", ">=", "==", "&&", "||", "!", "log2(", "H(",
    "sum(", "min(", "pow(", "lgamma(", "1/0", "0/0", "\\", "'", ";", "$", "\\u00e9",
]
# Expressions that are not closed forms: each must be refused, naming the bound.
BOUNDS_REFUSED = ["collective_N = 3", "1, 2", "collective_N += 1", "(1, 2)",
                  "noiseless_completion = noiseless_completion * 2", "loggops_L *= 2"]
OPTION_VALUES = {
    "--sample": ["", "-1", "0", "3", "23", "24", "18446744073709551615",
                 "18446744073709551616", "1e3", "x", " 1", "nan"],
    "--point": ["", "-1", "0", "1", "18446744073709551616", "x", "0.5"],
    "--ranks": ["", "-1", "0-3", "3-0", "0,0", "0,2,1", "7", "8", "0-7", "a", ",", "-", "0-",
                "99999999999"],
    "--window": ["", "0,1", "1,0", "x", "0", "nan,1", "0,inf", "-1,1"],
    "--rank-samples": ["", "-1", "0", "1", "4", "99999999999999999999"],
    "--confidence": ["", "-1", "0", "0.9", "1", "nan", "2"],
    "--unit": ["", "us", "xs", "ms"],
    "--size": ["", "-1", "8", "16", "x"],
}
OUTPUT_VALUES = ["", "cmd.h5", "cmd.toml", "trace.txt", ".", "a-fifo", "a-directory",
                 "/dev/full", "no-such-dir/x.json", "fresh.json", "fresh-archive"]


def printable_error(err, what):
    """The error lines of `err` must be printable and of bounded length (a data file's line is
    echoed cut and escaped, never raw)."""
    for line in err.splitlines():
        if not line.startswith("collnoise: error:"):
            continue
        if len(line) > 1000:
            raise Failure(f"{what}: an error line of {len(line)} characters")
        if any(ord(c) < 32 or ord(c) == 127 for c in line):
            raise Failure(f"{what}: an error line with control characters: {line[:300]!r}")


def snapshot(folder, names):
    out = {}
    for name in names:
        path = os.path.join(folder, name)
        out[name] = open(path, "rb").read() if os.path.isfile(path) else None
    return out


def check_new_command(binary, args, folder, inputs, what, names=()):
    """exit 0 or 2 (one printable error line naming each of `names`), inputs intact, no
    temporary left."""
    before = snapshot(folder, inputs)
    code, _, err = run(binary, args, folder, timeout=60)
    if code not in (0, 2):
        raise Failure(f"{what}: exit {code}:\n{err[-2000:]}")
    check_error_line(code, err, what)
    printable_error(err, what)
    if code == 2:
        for name in names:
            if name not in err:
                raise Failure(f"{what}: the error does not name '{name}':\n{err}")
    if snapshot(folder, inputs) != before:
        for name, data in before.items():  # put it back, so later checks read the inputs
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        raise Failure(f"{what}: an input was changed")
    left = [f for f in os.listdir(folder) if ".tmp-" in f]
    if left:
        raise Failure(f"{what}: temporaries left: {left}")
    return code


def fuzz_measured_files(binary, folder, mutations, rng, inputs):
    failures = []
    for m in range(mutations):
        base = MEASURED_TABLE if rng.random() < 0.5 else MEASURED_LIST
        text = mutate_data(base, rng, MEASURED_TOKENS)
        with open(os.path.join(folder, "measured.txt"), "w", encoding="utf-8",
                  errors="surrogatepass") as f:
            f.write(text)
        args = ["compare", "cmd.h5", "measured.txt", "--unit", "us"]
        if rng.random() < 0.3:
            args += ["--mode", "ranks", "--rank-samples", "4"]
        what = f"measured-times mutation {m}"
        try:
            check_new_command(binary, args, folder, inputs + ["measured.txt"], what,
                              ["measured.txt"])
        except Failure as e:
            failures.append(str(e) + "\n--- measured.txt ---\n" + repr(text[:1000]))
    return failures


def bound_run(expression):
    quoted = expression.replace("\\", "\\\\").replace('"', '\\"')
    return NEW_RUN.replace("[output]", f'[[bound]]\nname = "b"\nrelation = ">="\n'
                                       f'expression = "{quoted}"\n[output]')


def fuzz_bound_expressions(binary, folder, mutations, rng, inputs):
    failures = []
    cases = [(e, True) for e in BOUNDS_REFUSED]
    cases += [(" ".join(rng.choice(BOUND_TOKENS) for _ in range(rng.randint(1, 8))), False)
              for _ in range(mutations)]
    for m, (expression, refused) in enumerate(cases):
        with open(os.path.join(folder, "bound.toml"), "w") as f:
            f.write(bound_run(expression))
        what = f"bound expression {expression!r}"
        try:
            code = check_new_command(binary, ["run", "bound.toml", "--validate-only"], folder,
                                     inputs, what, ["bound.toml"])
            if refused and code != 2:
                raise Failure(f"{what}: accepted, but it is not a closed form")
        except Failure as e:
            failures.append(str(e))
    return failures


def random_arguments(rng, command):
    args = [command, "cmd.h5"]
    if command == "compare":
        args.append(rng.choice(["measured-list.txt", "measured-table.txt"]))
        options = ["--point", "--rank-samples", "--confidence", "--unit", "--size"]
        if rng.random() < 0.5:
            args += ["--mode", rng.choice(["max", "ranks", "", "x"])]
        if "measured-list.txt" in args and rng.random() < 0.8:
            args += ["--unit", "us"]
    else:
        args += ["--sample", rng.choice(OPTION_VALUES["--sample"])]
        options = ["--point", "--ranks", "--window"]
    for option in rng.sample(options, rng.randint(0, len(options))):
        args += [option, rng.choice(OPTION_VALUES[option])]
    outputs = ["--json"] if command == "compare" else ["--out", "--otf2"]
    for option in outputs:
        if rng.random() < 0.5:
            args += [option] if option == "--json" else [option, rng.choice(OUTPUT_VALUES)]
    if rng.random() < 0.5:
        args.append("--force")
    return args


# Arguments that must be refused (exit 2), with what the error names.
ARGUMENTS_REFUSED = [
    (["timeline", "cmd.h5", "--sample", ""], ["--sample"]),
    (["timeline", "cmd.h5", "--sample", "-1"], ["--sample"]),
    (["timeline", "cmd.h5", "--sample", "18446744073709551616"], ["--sample"]),
    (["timeline", "cmd.h5", "--sample", "0", "--point", ""], ["--point"]),
    (["timeline", "cmd.h5", "--sample", "0", "--ranks", ""], ["--ranks"]),
    (["timeline", "cmd.h5", "--sample", "0", "--ranks", "-1"], ["--ranks"]),
    (["timeline", "cmd.h5", "--sample", "0", "--otf2", ""], ["--otf2"]),
    (["timeline", "cmd.h5", "--sample", "0", "--otf2", ".", "--force"], ["."]),
    (["timeline", "cmd.h5", "--sample", "0", "--otf2", "cmd.h5", "--force"], ["cmd.h5"]),
    (["timeline", "cmd.h5", "--sample", "0", "--otf2", "a-directory", "--force"],
     ["a-directory"]),
    (["timeline", "cmd.h5", "--sample", "0", "--out", "cmd.toml", "--force"], ["cmd.toml"]),
    (["timeline", "cmd.h5", "--sample", "0", "--out", "trace.txt", "--force"], ["trace.txt"]),
    (["timeline", "a-fifo", "--sample", "0"], ["a-fifo"]),
    (["compare", "a-fifo", "measured-list.txt", "--unit", "us"], ["a-fifo"]),
    (["compare", "cmd.h5", "a-fifo", "--unit", "us"], ["a-fifo"]),
    (["compare", "cmd.h5", "measured-list.txt", "--unit", "us", "--point", ""], ["--point"]),
    (["compare", "cmd.h5", "measured-list.txt", "--unit", "us", "--point", "-1"], ["--point"]),
    (["compare", "cmd.h5", "measured-huge.txt", "--unit", "us"], ["measured-huge.txt"]),
    (["summary", "a-fifo"], ["a-fifo"]),
    (["verify", "a-fifo"], ["a-fifo"]),
    (["merge", "a-fifo", "cmd.h5", "--out", "fresh.h5"], ["a-fifo"]),
    (["run", "cmd.toml", "--out", "fresh.h5", "--resume", "a-fifo"], ["a-fifo"]),
]


def fuzz_command_arguments(binary, folder, mutations, rng, inputs):
    failures = []
    for args, names in ARGUMENTS_REFUSED:
        what = "collnoise " + " ".join(repr(a) if a == "" else a for a in args)
        try:
            if check_new_command(binary, args, folder, inputs, what, names) != 2:
                raise Failure(f"{what}: accepted")
        except Failure as e:
            failures.append(str(e))
    for m in range(mutations):
        args = random_arguments(rng, rng.choice(["timeline", "compare"]))
        what = "collnoise " + " ".join(repr(a) if a == "" or " " in a else a for a in args)
        try:
            check_new_command(binary, args, folder, inputs, what)
        except Failure as e:
            failures.append(str(e))
        for made in ("fresh.json", "fresh-archive", "fresh.h5", "cmd-p0-s3.json",
                     "cmd-p0-s0.json"):
            path = os.path.join(folder, made)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
    return failures


def fuzz_new_commands(binary, work, mutations, rng):
    """The newer commands' inputs (see the module's documentation, 5)."""
    folder = os.path.join(work, "commands")
    os.makedirs(folder, exist_ok=True)
    for name, text in [("trace.txt", EDGE_TRACE), ("cmd.toml", NEW_RUN),
                       ("measured-list.txt", MEASURED_LIST),
                       ("measured-table.txt", MEASURED_TABLE),
                       ("measured-huge.txt", "12.5\n1e308\n")]:
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    os.mkdir(os.path.join(folder, "a-directory"))
    os.mkfifo(os.path.join(folder, "a-fifo"))
    code, _, err = run(binary, ["run", "cmd.toml", "--out", "cmd.h5", "--quiet",
                                "--no-checkpoint"], folder)
    if code != 0:
        return [f"could not make a result for the newer commands (exit {code}):\n{err}"]
    inputs = ["cmd.h5", "cmd.toml", "trace.txt", "measured-list.txt", "measured-table.txt"]
    share = max(1, mutations // 3)
    failures = fuzz_measured_files(binary, folder, share, rng, inputs)
    failures += fuzz_bound_expressions(binary, folder, share, rng, inputs)
    failures += fuzz_command_arguments(binary, folder, share, rng, inputs)
    return failures, 3 * share + len(BOUNDS_REFUSED) + len(ARGUMENTS_REFUSED)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("work")
    parser.add_argument("--mutations", type=int, default=300)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--flips", type=int, default=300)
    parser.add_argument("--data", type=int, default=300)
    parser.add_argument("--commands", type=int, default=240)
    parser.add_argument("--seed", type=int, default=20261124)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = random.Random(args.seed)
    failures = fuzz_run_files(binary, work, args.mutations, args.runs, rng)
    failures += fuzz_files(binary, work, args.flips, rng)
    failures += fuzz_data_files(binary, work, args.data, rng)
    edge_failures, edge_checks = fuzz_batch_edges(binary, work)
    failures += edge_failures
    command_failures, command_checks = fuzz_new_commands(binary, work, args.commands, rng)
    failures += command_failures
    for f in failures:
        print("FAIL", f)
        print()
    total = args.mutations + args.flips + args.data + edge_checks + command_checks
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
