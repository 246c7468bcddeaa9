#!/usr/bin/env python3
"""Writes an XGFT fat tree as LogGOPSim's annotated dot file, with the routes collnoise gives the
same topology (docs/models/network.md, "Extended generalized fat-trees" and "Routing";
engine/network/xgft.cpp), so that a schedule on `topology = "xgft(...)"` with `contention =
"simple"` and on LogGOPSim's `-n simple --network-file` with this file crosses the same
directed links in the same order, and the two give the same times (bench/loggopsim_simple.sh).

    python3 bench/dot_fat_tree.py "xgft(2; 4,4; 1,2)" > t.dot
    python3 bench/dot_fat_tree.py "xgft(3; 4,4,4; 1,4,2)" --out t.dot
    python3 bench/dot_fat_tree.py "xgft(3; 4,4,4; 1,4,2)" --check   # every pair's route

What LogGOPSim reads (its src/LogGOPSim/Network.hpp): a digraph; every node whose name starts
with "H" is a host, and rank r is the r-th host in order of first appearance, so the hosts
H0..H(E-1) are declared first, endpoint e as He. Every other node is a switch, here S<level>_<index>
(level 1..h, index as in xgft.cpp). Every cable is two directed edges, one a link each way, as in
collnoise. An edge's `comment` lists the hosts whose packets leave its tail node through it;
a node with a single out-edge uses it whatever its comment says, so those edges keep the
default `edge [comment="*"]` (without a comment attribute declared anywhere in the graph,
LogGOPSim's parser crashes).

The routes are D-mod-K, which depends only on the destination d, so a table per node holds
them: a level-l node with d below it (d agrees with its m-digits l+1..h) sends d down to the
child whose digit l is d's; any other d goes up through port floor(d / (w_1 ... w_l)) mod
w_(l+1), whose upper node takes that port as its digit l+1 (digits counted from 1 here, from 0
in the code). --check walks every pair's route through the tables as LogGOPSim does and compares
it link by link with xgft.cpp's route, transcribed below. Any height h >= 1 is written; the
comparisons with LogGOPSim were run at heights 1 to 3.
"""
import argparse
import re
import sys


def parse_xgft(text):
    """(m, w) of "xgft(h; m_1,..,m_h; w_1,..,w_h)", as collnoise spells it."""
    match = re.fullmatch(r"\s*xgft\s*\(\s*(\d+)\s*;([^;]*);([^;]*)\)\s*", text, re.IGNORECASE)
    if not match:
        raise ValueError(f'expected "xgft(h; m_1,...,m_h; w_1,...,w_h)", got "{text}"')
    h = int(match.group(1))
    m = [int(x) for x in match.group(2).split(",")]
    w = [int(x) for x in match.group(3).split(",")]
    if h < 1 or len(m) != h or len(w) != h or min(m + w) < 1:
        raise ValueError(f"{text}: needs h >= 1 and h arities >= 1 for m and for w")
    return m, w


class Xgft:
    """Node numbering of engine/network/xgft.cpp: a level-l node's digits j < l are w-digits
    (ports chosen on the way up) and j >= l m-digits, digit 0 least significant."""

    def __init__(self, m, w):
        self.h, self.m, self.w = len(m), m, w
        self.w_product = [1]
        for x in w:
            self.w_product.append(self.w_product[-1] * x)
        self.nodes = []
        for level in range(self.h + 1):
            n = 1
            for j in range(self.h):
                n *= w[j] if j < level else m[j]
            self.nodes.append(n)
        self.endpoint_digits = [self.digits(0, d) for d in range(self.nodes[0])]

    def digits(self, level, index):
        out = []
        for j in range(self.h):
            radix = self.w[j] if j < level else self.m[j]
            out.append(index % radix)
            index //= radix
        return out

    def index(self, level, digits):
        index = 0
        for j in range(self.h - 1, -1, -1):
            radix = self.w[j] if j < level else self.m[j]
            index = index * radix + digits[j]
        return index

    def name(self, level, index):
        return f"H{index}" if level == 0 else f"S{level}_{index}"

    def out_edges(self, level, index):
        """[(head name, [destination endpoints])] of one node, down-ports then up-ports."""
        x = self.digits(level, index)
        # The endpoints below this node: those whose m-digits level..h-1 equal its own.
        below = [d for d, dd in enumerate(self.endpoint_digits)
                 if all(dd[j] == x[j] for j in range(level, self.h))]
        edges = []
        if level > 0:
            j = level - 1  # going down replaces w-digit j by the destination's m-digit j
            for child_digit in range(self.m[j]):
                child = list(x)
                child[j] = child_digit
                dests = [d for d in below if self.endpoint_digits[d][j] == child_digit]
                edges.append((self.name(level - 1, self.index(level - 1, child)), dests))
        if level < self.h:
            j = level  # going up replaces m-digit j by the chosen port
            inside = set(below)
            up = [d for d in range(self.nodes[0]) if d not in inside]
            for port in range(self.w[j]):
                parent = list(x)
                parent[j] = port
                dests = [d for d in up if (d // self.w_product[j]) % self.w[j] == port]
                edges.append((self.name(level + 1, self.index(level + 1, parent)), dests))
        return edges


def collnoise_route(t, src, dst):
    """Xgft::route of engine/network/xgft.cpp, transcribed: its links as (level, lower node,
    up-port, direction), the identity collnoise gives a directed link."""
    s, d = t.endpoint_digits[src], t.endpoint_digits[dst]
    s_suffix, d_suffix = [0] * (t.h + 1), [0] * (t.h + 1)
    for j in range(t.h - 1, -1, -1):
        s_suffix[j] = s_suffix[j + 1] * t.m[j] + s[j]
        d_suffix[j] = d_suffix[j + 1] * t.m[j] + d[j]
    top = 0
    for j in range(t.h - 1, -1, -1):
        if s[j] != d[j]:
            top = j + 1
            break
    u_prefix, ports, quotient, path = [0] * (t.h + 1), [0] * t.h, dst, []
    for level in range(top):
        ports[level] = quotient % t.w[level]
        quotient //= t.w[level]
        path.append((level, u_prefix[level] + t.w_product[level] * s_suffix[level], ports[level], "up"))
        u_prefix[level + 1] = u_prefix[level] + t.w_product[level] * ports[level]
    for level in range(top - 1, -1, -1):
        path.append((level, u_prefix[level] + t.w_product[level] * d_suffix[level], ports[level], "down"))
    return path


def check(t):
    """Walks every pair's route through the tables as LogGOPSim does (a node with one out-edge
    takes it) and compares it, link by link, with collnoise's; returns the pairs that differ."""
    table = {}
    for level in range(t.h + 1):
        for i in range(t.nodes[level]):
            edges = t.out_edges(level, i)
            for head, dests in edges:
                for d in (range(t.nodes[0]) if len(edges) == 1 else dests):
                    table.setdefault(((level, i), d), head)
    def parse(name):
        return (0, int(name[1:])) if name[0] == "H" else tuple(int(x) for x in name[1:].split("_"))
    bad = 0
    for src in range(t.nodes[0]):
        for dst in range(t.nodes[0]):
            at, walked = (0, src), []
            while at != (0, dst) and len(walked) <= 2 * t.h:
                nxt = parse(table[(at, dst)])
                if nxt[0] > at[0]:  # up: the lower node is the tail, the port the head's digit
                    walked.append((at[0], at[1], t.digits(nxt[0], nxt[1])[at[0]], "up"))
                else:
                    walked.append((nxt[0], nxt[1], t.digits(at[0], at[1])[nxt[0]], "down"))
                at = nxt
            if walked != collnoise_route(t, src, dst):
                bad += 1
    return bad


def write_dot(text, out):
    m, w = parse_xgft(text)
    t = Xgft(m, w)
    out.write(f"// {text}: collnoise's XGFT with its D-mod-K routes (bench/dot_fat_tree.py)\n")
    out.write("digraph xgft {\n")
    out.write('  edge [comment="*"];\n')
    # Hosts first, in rank order: LogGOPSim numbers ranks by first appearance.
    out.write("  " + "; ".join(t.name(0, e) for e in range(t.nodes[0])) + ";\n")
    for level in range(1, t.h + 1):
        out.write("  " + "; ".join(t.name(level, i) for i in range(t.nodes[level])) + ";\n")
    for level in range(t.h + 1):
        for i in range(t.nodes[level]):
            edges = t.out_edges(level, i)
            for head, dests in edges:
                tail = t.name(level, i)
                if len(edges) == 1:
                    out.write(f"  {tail} -> {head};\n")
                else:
                    hosts = " ".join(f"H{d}" for d in dests)
                    out.write(f'  {tail} -> {head} [comment="{hosts}"];\n')
    out.write("}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("xgft", metavar="TOPOLOGY",
                        help='collnoise\'s spelling, e.g. "xgft(2; 4,4; 1,2)"')
    parser.add_argument("--out", help="the dot file to write (default: standard output)")
    parser.add_argument("--check", action="store_true",
                        help="compare every pair's route with xgft.cpp's, transcribed, and exit")
    args = parser.parse_args()
    try:
        if args.check:
            t = Xgft(*parse_xgft(args.xgft))
            bad = check(t)
            print(f"{args.xgft}: {t.nodes[0] ** 2 - bad} of {t.nodes[0] ** 2} routes as collnoise's")
            sys.exit(1 if bad else 0)
        if args.out:
            with open(args.out, "w") as f:
                write_dot(args.xgft, f)
        else:
            write_dot(args.xgft, sys.stdout)
    except ValueError as e:
        sys.exit(f"dot_fat_tree.py: {e}")


if __name__ == "__main__":
    main()
