#!/bin/sh
# Runs a tool of JDK 25 for the JVM contestants, Java, Kotlin and Scala (`jdk.sh java …`,
# `jdk.sh javac …`), so that all use the same JDK whatever `java` is on PATH (Debian 12's is
# OpenJDK 17), or prints that JDK's runtime line (`jdk.sh version`) or its folder, for a
# build's JAVA_HOME (`jdk.sh home`). The JDK is $JAVA_HOME when that is a
# JDK 25, else Temurin 25 where Adoptium's temurin-25-jdk package installs it.
set -eu
is_jdk25() {
    [ -n "$1" ] && [ -x "$1/bin/java" ] && grep -q '^JAVA_VERSION="25[."]' "$1/release" 2>/dev/null
}
jdk=/usr/lib/jvm/temurin-25-jdk-amd64
if is_jdk25 "${JAVA_HOME-}"; then
    jdk=$JAVA_HOME
elif ! is_jdk25 "$jdk"; then
    echo "no JDK 25: install temurin-25-jdk (Adoptium's apt repository) or set JAVA_HOME" \
        "to a JDK 25" >&2
    exit 1
fi
tool="$1"
shift
if [ "$tool" = home ]; then
    echo "$jdk"
elif [ "$tool" = version ]; then
    # The second line of `java -version`: vendor and build, e.g.
    # "OpenJDK Runtime Environment Temurin-25.0.3+9 (build 25.0.3+9-LTS)".
    "$jdk/bin/java" -version 2>&1 | sed -n 2p
else
    exec "$jdk/bin/$tool" "$@"
fi
