import Glibc

/// A list of plain values in memory of its own, grown a quarter at a time by `realloc` and
/// given up at its exact size (`take`). A large block is moved by the kernel's page tables
/// (`mremap`), not copied, so a list of 100 MB grows without holding 200 at once, as a Swift
/// array, doubling and copying, does: what the MPD catalog is read into.
final class GrowingList<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private var capacity = 0

    init(expected: Int = 0) {
        if expected > 0 { grow(to: expected) }
    }

    deinit { free(base) }

    private func grow(to wanted: Int) {
        let size = max(wanted, capacity + capacity / 4, 256)
        let (bytes, overflow) = size.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        guard !overflow, let moved = realloc(base, bytes) else { fatalError("out of memory for \(size) items") }
        base = moved.assumingMemoryBound(to: Element.self)
        capacity = size
    }

    func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base! + count).initialize(to: element)
        count += 1
    }

    func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if count + elements.count > capacity { grow(to: count + elements.count) }
        (base! + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    /// The values, in memory of their exact size that the caller now owns (and frees with
    /// `free`); the list is left empty.
    func take() -> UnsafeMutableBufferPointer<Element> {
        let taken = realloc(base, max(count, 1) * MemoryLayout<Element>.stride)?.assumingMemoryBound(to: Element.self) ?? base
        let list = UnsafeMutableBufferPointer(start: taken, count: count)
        (base, count, capacity) = (nil, 0, 0)
        return list
    }
}
