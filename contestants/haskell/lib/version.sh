#!/bin/sh
# The version line of a Haskell contestant (docs/PROTOCOL.md §5): GHC's version, then each
# library named on the command line as GHC itself resolves it. Asking GHC rather than ghc-pkg
# also finds a library that `cabal install --lib` exposed through an environment file.
set -eu
line="ghc $(ghc --numeric-version)"
for package in "$@"; do
  version=$(ghc -v2 -package "$package" -e 'pure ()' 2>&1 |
    sed -n "s/^Loading package $package-\([0-9.]*\) .*/\1/p")
  if [ -z "$version" ]; then
    echo "GHC cannot load the package $package" >&2
    exit 1
  fi
  line="$line, $package $version"
done
echo "$line"
