import ParserChecks

/// libFuzzer's entry point (built only by `make fuzz`, with `--sanitize=fuzzer`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ParserChecks.fuzz(data, size, ParserChecks.mpdBytes)
}
