import Foundation
import Testing

// Attacks on the files mtool writes, and on its messages: each test is a finding that once held
// (a link followed at the temporary name, a device removed, a file-size limit killing the
// process without a word, ...) and must not again.

/// A fresh scratch folder, with `in.wav` (2 s of stereo) and `in.srt` copied in.
private func attackFolder() throws -> String {
  let path = NSTemporaryDirectory() + "mtool-attack-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  try FileManager.default.copyItem(atPath: fixtures + "/clip.wav", toPath: path + "/in.wav")
  try FileManager.default.copyItem(atPath: fixtures + "/sample.srt", toPath: path + "/in.srt")
  return path
}

/// Runs `script` with `/bin/sh` in `folder` (see ``runShell(_:in:)``).
private func shell(_ script: String, in folder: String) throws -> RunResult {
  try runShell(script, in: folder).0
}

/// The names in `folder`, sorted.
private func names(_ folder: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}

private let writers: [(String, String)] = [
  ("stretch", "$M stretch in.wav OUT --speed 1.5"),
  ("cues", "$M cues in.srt --to vtt -o OUT"),
]

@Test("a link planted at the temporary names a PID predicts is never followed", arguments: writers)
func plantedLinkAtPredictableTemporaryName(_ writer: (String, String)) throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let out = writer.0 == "stretch" ? "out.wav" : "out.vtt"
  // The child plants links at every name derived from its own PID, then becomes mtool.
  let command = writer.1.replacingOccurrences(of: "OUT", with: out)
  let result = try shell(
    """
    printf 'secret' > victim; chmod 600 victim
    ln -s victim ".\(out).partial-$$.wav"; ln -s victim "\(out).partial-$$"
    ln -s in.wav ".\(out).partial-$$.vtt"
    exec \(command)
    """, in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  #expect(try String(contentsOfFile: folder + "/victim", encoding: .utf8) == "secret")
  #expect(
    try FileManager.default.attributesOfItem(atPath: folder + "/victim")[.posixPermissions] as? Int
      == 0o600)
  #expect(
    try Data(contentsOf: URL(fileURLWithPath: folder + "/in.wav"))
      == Data(contentsOf: URL(fileURLWithPath: fixtures + "/clip.wav")))
  let type =
    try FileManager.default.attributesOfItem(atPath: folder + "/" + out)[.type]
    as? FileAttributeType
  #expect(type == .typeRegular)
  #expect(try names(folder).filter { $0.hasSuffix(".tmp") }.isEmpty)
}

@Test(
  "a link as the output: its target is replaced, the link stays, the mode is kept",
  arguments: writers)
func linkOutputKeepsLinkAndMode(_ writer: (String, String)) throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let (link, target) = writer.0 == "stretch" ? ("lnk.wav", "real.flac") : ("lnk.vtt", "real.srt")
  let result = try shell(
    "mkdir sub; printf old > sub/\(target); chmod 600 sub/\(target); ln -s sub/\(target) \(link); "
      + writer.1.replacingOccurrences(of: "OUT", with: link), in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  let fm = FileManager.default
  #expect(try fm.destinationOfSymbolicLink(atPath: folder + "/" + link) == "sub/" + target)
  #expect(
    try fm.attributesOfItem(atPath: folder + "/sub/" + target)[.posixPermissions] as? Int == 0o600)
  let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/sub/" + target))
  // The format follows the name typed (`.wav`, `.vtt`), not the link target's name.
  if writer.0 == "stretch" {
    #expect(bytes.prefix(4) == Data("RIFF".utf8))
  } else {
    #expect(bytes.prefix(6) == Data("WEBVTT".utf8))
  }
  #expect(try names(folder + "/sub") == [target])
}

@Test func linkToAnUnknownExtensionTakesTheTypedName() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try shell("ln -s blob lnk.wav; $M stretch in.wav lnk.wav --speed 2", in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/blob"))
  #expect(bytes.prefix(4) == Data("RIFF".utf8))
}

@Test("a dangling link and a failing input leave the link and nothing else", arguments: writers)
func danglingLinkWithFailingInput(_ writer: (String, String)) throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let command = writer.1.replacingOccurrences(of: "OUT", with: "lnk")
    .replacingOccurrences(of: "in.wav", with: "bad.wav").replacingOccurrences(
      of: "in.srt", with: "bad.srt")
  let result = try shell(
    "head -c 3000 /dev/urandom > bad.wav; printf '\\0\\1\\2' > bad.srt; ln -s missing.out lnk; "
      + command, in: folder)
  #expect(result.status == 65 || result.status == 64, "\(result.stderr)")
  #expect(try names(folder) == ["bad.srt", "bad.wav", "in.srt", "in.wav", "lnk"])
  #expect(
    try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/lnk") == "missing.out")
}

@Test func temporaryCopyOfAPrivateFileIsPrivateFromTheStart() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // The input is a pipe held open, so the command waits with its temporary file created.
  let result = try shell(
    """
    printf 'old' > out.vtt; chmod 600 out.vtt; mkfifo feed
    $M cues - --to vtt -o out.vtt < feed & pid=$!
    exec 3> feed
    for i in $(seq 100); do ls -a | grep -q '^\\.out\\.vtt\\..*\\.tmp$' && break; sleep 0.05; done
    stat -c %a .out.vtt.*.tmp
    cat in.srt >&3; exec 3>&-
    wait $pid; echo "status $?"
    stat -c %a out.vtt
    """, in: folder)
  #expect(result.stdout == "600\nstatus 0\n600\n", "\(result.stdout) \(result.stderr)")
}

@Test("a name of 244 bytes (NAME_MAX is 255) can be written", arguments: writers)
func longOutputName(_ writer: (String, String)) throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let name = String(repeating: "n", count: 240) + (writer.0 == "stretch" ? ".wav" : ".vtt")
  let result = try shell(writer.1.replacingOccurrences(of: "OUT", with: name), in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  #expect(FileManager.default.fileExists(atPath: folder + "/" + name))
}

@Test("a device node as the output is written in place and never removed", arguments: writers)
func deviceOutputIsNeverRemoved(_ writer: (String, String)) throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  guard geteuid() == 0 else { return }  // mknod needs root.
  // A full device (like /dev/full): every write fails; the node must survive.
  let full = try shell(
    "mknod full.wav c 1 7 && " + writer.1.replacingOccurrences(of: "OUT", with: "full.wav"),
    in: folder)
  #expect(failedWithOneLine(full, 1), "\(full.status) \(full.stderr)")
  var info = stat()
  #expect(lstat(folder + "/full.wav", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
  // A null device takes everything and stays.
  let null = try shell(
    "mknod null.wav c 1 3 && " + writer.1.replacingOccurrences(of: "OUT", with: "null.wav"),
    in: folder)
  #expect(null.status == 0, "\(null.stderr)")
  #expect(lstat(folder + "/null.wav", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
}

@Test func waveToAPipeHasAStreamingHeader() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try shell(
    "mkfifo pipe.wav; cat pipe.wav > got.wav & $M stretch in.wav pipe.wav --speed 2 && wait",
    in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/got.wav"))
  #expect(bytes.count == 44 + 22_050 * 4)
  #expect(Array(bytes[4..<8]) == [0xFF, 0xFF, 0xFF, 0xFF])
  let probe = try shell(
    "ffprobe -v error -show_entries stream=duration_ts -of csv=p=0 got.wav", in: folder)
  #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "22050")
  var info = stat()
  #expect(lstat(folder + "/pipe.wav", &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
}

/// A pipe or a device named without an audio extension (`/dev/null`, a FIFO) takes WAV with a
/// streaming header, as the help says; it was refused as an unknown extension (64). A regular
/// file without one still is.
@Test func anExtensionlessPipeOrDeviceTakesWave() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try shell(
    "mkfifo pipe; cat pipe > got.wav & $M stretch in.wav pipe --speed 2 && wait", in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/got.wav"))
  #expect(bytes.count == 44 + 22_050 * 4)
  #expect(Array(bytes[0..<4]) == Array("RIFF".utf8))
  let null = try shell("$M stretch in.wav /dev/null --speed 2", in: folder)
  #expect(null.status == 0, "\(null.stderr)")
  // Named as standard output is, it carries the audio alone, as '-' does (no result line).
  let standard = try shell("$M stretch in.wav /dev/stdout --speed 2 | od -c | head -1", in: folder)
  #expect(standard.status == 0, "\(standard.stderr)")
  #expect(standard.stdout.contains("R   I   F   F"), "\(standard.stdout)")
  let whole = try shell("$M stretch in.wav /dev/stdout --speed 2 | wc -c", in: folder)
  #expect(whole.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(44 + 22_050 * 4)")
  let plain = try shell("$M stretch in.wav plain --speed 2", in: folder)
  #expect(failedWithOneLine(plain, 64), "\(plain.status) \(plain.stderr)")
}

@Test func aPipeWhoseReaderLeftFailsAndStays() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try shell(
    "mkfifo pipe.flac; head -c 100 pipe.flac > /dev/null & $M stretch in.wav pipe.flac --speed 0.5",
    in: folder)
  #expect(failedWithOneLine(result, 1), "\(result.status) \(result.stderr)")
  var info = stat()
  #expect(lstat(folder + "/pipe.flac", &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
}

@Test("a file-size limit is one line and exit 1, and leaves nothing", arguments: writers)
func fileSizeLimit(_ writer: (String, String)) throws {
  // ThreadSanitizer's runtime cannot start under a file-size limit of a few KB (it dies of
  // SIGBUS before main), so this runs in the plain and AddressSanitizer passes only.
  if ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil { return }
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let out = writer.0 == "stretch" ? "big.wav" : "big.vtt"
  // Outputs past the limit of a few KB: 117 KB of WAVE, 50 KB of WebVTT (the sample repeated).
  let result = try shell(
    "for i in $(seq 400); do cat in.srt; echo; done > in2.srt; ulimit -f 8; "
      + writer.1.replacingOccurrences(of: "OUT", with: out).replacingOccurrences(
        of: "in.srt", with: "in2.srt"), in: folder)
  #expect(failedWithOneLine(result, 1), "\(result.status) \(result.stderr)")
  #expect(result.stderr.contains("too large"))
  #expect(try names(folder) == ["in.srt", "in.wav", "in2.srt"])
}

@Test(
  "SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1 and SIGXCPU during cues -o leave nothing",
  arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGXCPU])
func signalDuringCuesOutput(_ signal: Int32) throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try shell(
    """
    mkfifo feed
    $M cues - --to vtt -o out.vtt < feed & pid=$!
    exec 3> feed
    for i in $(seq 100); do ls -a | grep -q '\\.tmp$' && break; sleep 0.05; done
    ls -a | grep -c '\\.tmp$'
    kill -\(signal) $pid; wait $pid; echo "status $?"
    exec 3>&-
    """, in: folder)
  #expect(result.stdout == "1\nstatus \(128 + signal)\n", "\(result.stdout) \(result.stderr)")
  #expect(try names(folder) == ["feed", "in.srt", "in.wav"])
}

@Test func speedMapTimesPastAnyInputWork() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  for map in ["0:1,1e300:2", "0:1,2e14:2", "0:1.5,1.7976931348623157e308:2"] {
    let result = try shell("$M stretch in.wav out.wav --speed-map '\(map)' --json", in: folder)
    #expect(result.status == 0, "\(map): \(result.stderr)")
    #expect(result.stdout.contains("\"inputFrames\":44100"))
  }
}

@Test func zerosOnStandardInputAreRefusedWithOneLine() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try shell("$M cues - < /dev/zero", in: folder)
  #expect(failedWithOneLine(result, 65), "\(result.status) \(result.stderr)")
  #expect(result.stderr.contains("1 GiB"))
}

@Test func namesThatAreNotUTF8PassThroughAsBytes() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try shell(
    """
    cp in.srt "$(printf 'bad\\377.srt')"; cp in.wav "$(printf 'in\\376.wav')"
    $M cues "$(printf 'bad\\377.srt')" --to vtt -o "$(printf 'o\\377.vtt')" || echo "cues $?"
    $M stretch "$(printf 'in\\376.wav')" "$(printf 'o\\377.wav')" --speed 2 > /dev/null || echo "stretch $?"
    $M tracks "$(printf 'in\\376.wav')" > /dev/null || echo "tracks $?"
    test -f "$(printf 'o\\377.vtt')" && echo vtt-exact
    test -f "$(printf 'o\\377.wav')" && echo wav-exact
    ls | grep -c "$(printf '\\357\\277\\275')"
    """, in: folder)
  #expect(result.stderr.isEmpty, "\(result.stderr)")
  // The outputs exist with the byte itself in their names, and nothing with U+FFFD instead.
  #expect(result.stdout == "vtt-exact\nwav-exact\n0\n", "\(result.stdout)")
  let missing = try shell("$M cues \"$(printf 'no\\377\\033[31m.srt')\"", in: folder)
  #expect(failedWithOneLine(missing, 66))
  #expect(missing.stderr.contains("no\\xFF\\x1B[31m.srt"), "\(missing.stderr)")
}

@Test func escapeSequencesInCueTextAreShownNotSent() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let result = try shell(
    "printf '1\\n00:00:01,000 --> 00:00:02,000\\n\\033]0;pwned\\007 \\033[2J\\302\\233x\\n' > esc.srt; $M cues esc.srt",
    in: folder)
  #expect(result.status == 0)
  #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"))
  #expect(!result.stdout.contains("\u{9B}"))
  #expect(result.stdout.contains("\\x1B]0;pwned\\x07"), "\(result.stdout)")
}

@Test("a new output gets 0666 less the umask, from the start", arguments: writers)
func newOutputFollowsTheUmask(_ writer: (String, String)) throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let out = writer.0 == "stretch" ? "new.flac" : "new.vtt"
  let result = try shell(
    "umask 027; " + writer.1.replacingOccurrences(of: "OUT", with: out)
      + " > /dev/null; stat -c %a "
      + out, in: folder)
  #expect(result.stdout == "640\n", "\(result.stdout) \(result.stderr)")
}

@Test func outputsThatCannotBeFilesFailWithOneLine() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  for (script, status) in [
    ("$M cues in.srt -o out/", 1), ("$M cues in.srt -o .", 1),
    ("$M cues in.srt -o missing/x.vtt", 1), ("$M stretch in.wav missing/x.wav --speed 2", 1),
    ("$M stretch in.wav /dev/stdout --speed 2 --json", 64),
    ("mkfifo p.m4a; cat p.m4a > /dev/null & $M stretch in.wav p.m4a --speed 2", 1),
  ] {
    let result = try shell(script, in: folder)
    #expect(
      failedWithOneLine(result, Int32(status)), "\(script): \(result.status) \(result.stderr)")
  }
  #expect(try names(folder).filter { $0.hasSuffix(".tmp") }.isEmpty)
}

@Test func namesAndTitlesCannotDriveOrDisguiseTheTerminal() throws {
  let folder = try attackFolder()
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // A file name with an escape sequence and a right-to-left override, and a track title with
  // more of them: the table shows them escaped.
  let (result, _) = try runShell(
    """
    name="$(printf 'evil\\033[2J\\342\\200\\256vkm.mkv')"
    ffmpeg -v error -i in.wav -t 0.5 \\
      -metadata:s:a:0 "title=$(printf '\\033]0;pwned\\007')" "$name"
    $M tracks "$name"
    """, in: folder)
  #expect(result.status == 0, "\(result.stderr)")
  #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{202E}"))
  #expect(result.stdout.hasPrefix("evil\\x1B[2J\\u{202E}vkm.mkv: "), "\(result.stdout)")
}
