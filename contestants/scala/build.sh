#!/bin/sh
# Builds one Scala contestant ($1: its module, cats-effect or zio) with the shared lib into
# its cache folder ($2) with Maven on JDK 25 (../java/jdk.sh finds it): the local repository ($2/m2, filled from
# Maven Central on the first build) and the build output ($2/<artifactId>) stay there, out
# of $HOME and of this folder. Maven and the Scala compiler take tens of seconds even when
# nothing changed, so the build is skipped when the poms, sources and this script are those
# of the last successful build.
set -eu
module="$1"
cache="$2"
dir=$(cd "$(dirname "$0")" && pwd)
stamp="$cache/built-from"
sources=$(cat "$dir/build.sh" "$dir/pom.xml" "$dir/lib/pom.xml" "$dir"/lib/src/*.scala \
    "$dir/$module/pom.xml" "$dir/$module"/src/*.scala | cksum)
if [ "$(cat "$stamp" 2>/dev/null)" = "$sources" ] \
    && ls "$cache"/*/contestant.jar >/dev/null 2>&1; then
    exit 0
fi
rm -f "$stamp"
# The jars of an earlier build's versions would stay beside the new ones.
rm -rf "$cache"/*/lib
# Maven 3.8 on JDK 25 warns of sun.misc.Unsafe uses (Guava; Maven 3.9.10+ passes this itself)
# and of native access (zinc's file watcher, in the Scala plugin).
JAVA_HOME=$(sh "$dir/../java/jdk.sh" home) MAVEN_OPTS='--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED' \
    mvn --quiet --batch-mode -Dstyle.color=never --file "$dir/pom.xml" \
    --projects "$module" --also-make \
    -Dmaven.repo.local="$cache/m2" -Dtaskbench.cache="$cache" package
echo "$sources" >"$stamp"
