#!/usr/bin/env bash
# The commit the action's major tag points at: the released commit plus the release's wheel in
# dist/ (the file the build job made and PyPI got), so `uses: <owner>/pytest-jobledger@v1`
# installs that wheel and builds nothing (action.yml installs dist/pytest_jobledger-*.whl when
# there is one). Made with git's plumbing in an index of its own: the checkout is not touched.
#
#     .github/action_wheel.sh WHEEL SHA      # prints the new commit
set -euo pipefail
if [ "$#" -ne 2 ]; then
  echo "usage: action_wheel.sh WHEEL SHA" >&2
  exit 2
fi
wheel="$1"
sha="$2"
name="$(basename -- "$wheel")"
case "$name" in
  pytest_jobledger-*-py3-none-any.whl) ;;
  *)
    echo "action_wheel.sh: $name is not the tool's pure-Python wheel (pytest_jobledger-*-py3-none-any.whl)" >&2
    exit 2
    ;;
esac
if [ ! -f "$wheel" ]; then
  echo "action_wheel.sh: no file $wheel (the build job's dist artifact)" >&2
  exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GIT_INDEX_FILE="$work/index"
git read-tree "$sha^{tree}"
if [ -n "$(git ls-files -- dist)" ]; then
  echo "action_wheel.sh: $sha already has a dist/ folder; the release adds the only wheel" >&2
  exit 2
fi
blob="$(git hash-object -w -- "$wheel")"
git update-index --add --cacheinfo "100644,$blob,dist/$name"
tree="$(git write-tree)"
git -c user.name="github-actions[bot]" \
  -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
  commit-tree "$tree" -p "$sha" -m "The action at ${sha:0:12} with its release's wheel: dist/$name"
