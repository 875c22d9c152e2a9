// Prints what scala-cats-effect measures, as loaded at run time (the manifest's version
// command): Cats Effect, the Scala 3 library and the JVM.
package taskbench

import cats.effect.IO

object Versions:
  def main(args: Array[String]): Unit =
    println(s"cats-effect ${Loaded.version(classOf[IO[?]])} (${Loaded.platform})")
