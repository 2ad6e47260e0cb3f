#!/usr/bin/env bash
# Dead code (docs/ARCHITECTURE.md §Testing): a function is dead when no
# program reaches it — neither hermesdesk (the default build) nor
# hermesdesk-window (desktop,production) in every build that links its
# package. It must go, or be listed in scripts/deadcode-allow.txt with the
# reason (reached only from tests, or from C). Fails on anything new, and on an allow-list line that
# no longer names a function only tests reach.
# Usage: scripts/deadcode.sh   (go run fetches the pinned deadcode once)
set -euo pipefail
cd "$(dirname "$0")/.."
deadcode="go run golang.org/x/tools/cmd/deadcode@v0.52.0"
module=$(go list -m)
builds=("sqlite_fts5,webkit2_41" "desktop,production,sqlite_fts5,webkit2_41")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fmt='{{range .Funcs}}{{$.Path}} {{.Name}}{{"\n"}}{{end}}'

# dead KIND FLAGS...: writes $tmp/KIND.N.dead and .pkgs for each build N.
dead() {
  local kind=$1 i=0
  shift
  for tags in "${builds[@]}"; do
    # frontend/node_modules may hold Go packages of npm packages (flatted):
    # they are not ours.
    $deadcode -f "$fmt" -tags "$tags" "$@" | grep -v "^$module/frontend/node_modules/" | sort -u >"$tmp/$kind.$i.dead"
    go list -e -deps -tags "$tags" "$@" | grep "^$module" | grep -v "^$module/frontend/node_modules/" | sort -u >"$tmp/$kind.$i.pkgs"
    i=$((i + 1))
  done
}
# verdict KIND: the functions dead in every build that links their package.
verdict() {
  awk -v kind="$1" -v n="${#builds[@]}" -v tmp="$tmp" '
    BEGIN {
      for (i = 0; i < n; i++) {
        f = tmp "/" kind "." i ".pkgs"; while ((getline l < f) > 0) linked[i, l] = 1
        f = tmp "/" kind "." i ".dead"; while ((getline l < f) > 0) { dead[i, l] = 1; cand[l] = 1 }
      }
      for (c in cand) {
        split(c, p, " "); ok = 1
        for (i = 0; i < n; i++) if (linked[i, p[1]] && !dead[i, c]) ok = 0
        if (ok) print c
      }
    }' | sort
}
dead prog .
dead test -test ./...
verdict prog >"$tmp/prog"  # no program reaches these
verdict test >"$tmp/test"  # nor does any test
grep -v '^\s*\(#\|$\)' scripts/deadcode-allow.txt | awk '{ print $1, $2 }' | sort -u >"$tmp/allow" || true
fail=0
if comm -23 "$tmp/test" "$tmp/allow" | grep -q .; then
  echo "deadcode: reached by no program and no test; remove:"
  comm -23 "$tmp/test" "$tmp/allow" | sed 's/^/  /'; fail=1
fi
comm -23 "$tmp/prog" "$tmp/test" >"$tmp/testonly"
if comm -23 "$tmp/testonly" "$tmp/allow" | grep -q .; then
  echo "deadcode: reached only by tests; remove, or add to scripts/deadcode-allow.txt with the reason:"
  comm -23 "$tmp/testonly" "$tmp/allow" | sed 's/^/  /'; fail=1
fi
if comm -13 "$tmp/prog" "$tmp/allow" | grep -q .; then
  echo "deadcode: scripts/deadcode-allow.txt lists what a program now reaches (or what is gone); drop:"
  comm -13 "$tmp/prog" "$tmp/allow" | sed 's/^/  /'; fail=1
fi
[ "$fail" = 0 ] && echo "deadcode: no dead code ($(wc -l <"$tmp/allow") functions kept by scripts/deadcode-allow.txt)"
exit "$fail"
