import ParserChecks

/// libFuzzer's entry point (built only by `make fuzz`, with `--sanitize=fuzzer`): every input
/// must keep every promise `ParserChecks` lists, or the run stops with what broke.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let broken = ParserChecks.seekTarget(bytes)
    if let first = broken.first { fatalError("promise broken: \(first)") }
    return 0
}
