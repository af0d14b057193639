import MediaTracks

/// `--header 'Name: value'` of the commands that read inputs, repeatable.
let headerOption = OptionSpec(
  "header", short: "H", value: "'N: V'", repeatable: true,
  help: "Extra request header for http(s) inputs (repeatable), e.g. a CDN token.")

/// `--cacert FILE`: the certificate authorities an https server must chain to.
let cacertOption = OptionSpec(
  "cacert", value: "FILE",
  help: "PEM certificate authorities for https (default: the system's).")

/// What remote inputs mean, for a command's help.
let remoteHelp = """
  An http:// or https:// input is requested through FFmpeg's own http and https protocols \
  (redirects followed, a reset connection or a 5xx answer retried a few times with pauses, \
  byte ranges for media, https certificates verified against the system's authorities or \
  --cacert's), under the same --timeout; an HLS or DASH manifest is read as a \
  local one is, what it names resolved against its URL to http(s) URLs only, never to a \
  local file. A 4xx answer or a server that cannot be reached exits 66, content that is not \
  what it claims 65, a timeout, a redirect loop, a 5xx answer or a broken transfer 1.
  """

/// The `--header` values as ``RemoteAccess``.
/// - Throws: A usage error for a header that is not `Name: value` on one line.
func parseRemoteAccess(_ arguments: ParsedArguments, command: String) throws(CLIError)
  -> RemoteAccess
{
  let access = RemoteAccess(
    headers: arguments.options["header"] ?? [], certificateAuthorities: arguments.value("cacert"))
  for header in access.headers {
    let name = header.prefix { $0 != ":" }
    guard name.count < header.count, !name.isEmpty,
      name.allSatisfy({ $0.isASCII && !$0.isWhitespace }),
      !header.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" })
    else {
      throw CLIError.usage(command, "--header expects 'Name: value' on one line, got '\(header)'")
    }
  }
  return access
}
