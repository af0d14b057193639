// PlayerSession: plays a media file headless against a simulated clock and prints the events.
import PlayerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(PlayerCommandLine.main(Array(CommandLine.arguments.dropFirst())))
