// Prints what kotlin-coroutines measures, as loaded at run time (the manifest's version
// command): kotlinx.coroutines, the Kotlin standard library and the JVM.
@file:JvmName("Versions")

package taskbench

import kotlinx.coroutines.Job

fun main() {
    val coroutines = Job::class.java.`package`.implementationVersion
    val jvm = System.getProperty("java.vendor.version") ?: System.getProperty("java.runtime.version")
    println("kotlinx.coroutines $coroutines (Kotlin ${KotlinVersion.CURRENT}, $jvm)")
}
