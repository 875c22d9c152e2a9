// Prints what kotlin-coroutines measures, as loaded at run time (the manifest's version
// command): kotlinx.coroutines, the Kotlin standard library and the JVM. kotlinx.coroutines
// 1.11 names its version in its jar's manifest; where a release does not (1.8.1, a variant),
// it is read from the name of the jar its classes were loaded from.
@file:JvmName("Versions")

package taskbench

import kotlinx.coroutines.Job

fun main() {
    val loaded = Job::class.java
    val jar = loaded.protectionDomain.codeSource?.location?.path?.substringAfterLast('/')
    val fromJar = jar?.removePrefix("kotlinx-coroutines-core-jvm-")?.removeSuffix(".jar")
    val coroutines = loaded.`package`.implementationVersion ?: fromJar
    val jvm = System.getProperty("java.vendor.version") ?: System.getProperty("java.runtime.version")
    println("kotlinx.coroutines $coroutines (Kotlin ${KotlinVersion.CURRENT}, $jvm)")
}
