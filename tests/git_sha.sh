#!/usr/bin/env bash
# cmake/git_sha.cmake on a scratch repository: the commit of clean sources; "-dirty-" and a hash
# that differs between two different uncommitted states (a changed file, a new file); "unknown"
# outside git; the header left untouched when nothing changed.
#   bash tests/git_sha.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work/repo/core"
cp "$src/core/version.hpp.in" "$work/repo/core/"
cd "$work/repo"
git init -q
git -c user.email=t@example -c user.name=t commit -q --allow-empty -m empty
echo one > a.txt
git add a.txt core
git -c user.email=t@example -c user.name=t commit -q -m one
sha_of() {  # the sha the script writes for the tree as it stands
  cmake -DSOURCE_DIR="$work/repo" -DOUT="$work/v.hpp" -DPROJECT_VERSION=9.9.9 \
    -P "$src/cmake/git_sha.cmake"
  sed -n 's/.*kGitSha = "\(.*\)";/\1/p' "$work/v.hpp"
}
fail() { echo "FAIL: $*"; exit 1; }
clean=$(sha_of)
[ "$clean" = "$(git rev-parse --short=12 HEAD)" ] || fail "clean tree gave '$clean'"
before=$(stat -c %Y "$work/v.hpp")
sleep 1
[ "$(sha_of)" = "$clean" ] || fail "same tree, another sha"
[ "$(stat -c %Y "$work/v.hpp")" = "$before" ] || fail "the header was rewritten with the same text"
echo two > a.txt
changed=$(sha_of)
[[ $changed == "$clean"-dirty-???????? ]] || fail "a changed file gave '$changed'"
echo three > a.txt
[ "$(sha_of)" != "$changed" ] || fail "two different changes gave one sha"
echo one > a.txt
echo new > b.txt
untracked=$(sha_of)
[[ $untracked == "$clean"-dirty-???????? ]] || fail "a new file gave '$untracked'"
rm -rf .git
[ "$(sha_of)" = "unknown" ] || fail "outside git"
echo "git_sha: 5 passed, 0 failed"
