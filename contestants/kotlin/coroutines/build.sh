#!/bin/sh
# Builds the kotlin-coroutines contestant into its cache folder ($1) with Maven on JDK 25 (../../java/jdk.sh finds it):
# the local repository ($1/m2, filled from Maven Central on the first build) and the build
# output ($1/target) stay there, out of $HOME and of this folder. Maven and the in-process
# Kotlin compiler take ~15 s even when nothing changed, so the build is skipped when the pom,
# sources and this script are those of the last successful build. Further arguments go to
# Maven: a variant sets its release so (-Dkotlinx.coroutines.version=1.8.1), and they are
# part of what the build is stamped with.
set -eu
cache="$1"
shift
dir=$(cd "$(dirname "$0")" && pwd)
stamp="$cache/built-from"
sources="$(cat "$dir/build.sh" "$dir/pom.xml" "$dir"/src/*.kt | cksum)${*:+ $*}"
if [ -f "$cache/target/contestant.jar" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sources" ]; then
    exit 0
fi
rm -f "$stamp"
# Maven 3.8 on JDK 25 warns of sun.misc.Unsafe uses (Guava); Maven 3.9.10+ passes this itself.
JAVA_HOME=$(sh "$dir/../../java/jdk.sh" home) MAVEN_OPTS=--sun-misc-unsafe-memory-access=allow \
    mvn --quiet --batch-mode -Dstyle.color=never --file "$dir/pom.xml" \
    -Dmaven.repo.local="$cache/m2" -Dtaskbench.cache="$cache" "$@" package
echo "$sources" >"$stamp"
