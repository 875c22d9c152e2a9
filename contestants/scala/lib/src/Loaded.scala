// What a contestant's version command reads back: the version in the manifest of the jar
// a class was loaded from, and the Scala library and JVM it runs on.
package taskbench

object Loaded:
  /** The Implementation-Version of the jar that holds `cls`. */
  def version(cls: Class[?]): String =
    Option(cls.getPackage.getImplementationVersion).getOrElse("(unknown version)")

  /** "Scala 3.x.y, <JVM vendor version>". */
  def platform: String =
    val jvm = Option(System.getProperty("java.vendor.version")).getOrElse(System.getProperty("java.runtime.version"))
    s"Scala ${version(classOf[scala.deriving.Mirror])}, $jvm"
