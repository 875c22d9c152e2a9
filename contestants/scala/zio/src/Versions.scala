// Prints what scala-zio measures, as loaded at run time (the manifest's version command):
// ZIO, the Scala 3 library and the JVM.
package taskbench

object Versions:
  def main(args: Array[String]): Unit =
    println(s"zio ${Loaded.version(classOf[zio.ZIO[?, ?, ?]])} (${Loaded.platform})")
