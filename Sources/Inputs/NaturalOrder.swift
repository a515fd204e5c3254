import PlayerCore

/// Natural sort order: runs of digits compare by their number (`track2` < `track10`), the rest
/// case-insensitively, with the exact bytes as the final tie-break so the order is total.
public enum NaturalOrder {
    public static func less(_ a: Path, _ b: Path) -> Bool {
        let order = compare(Array(a.description.unicodeScalars), Array(b.description.unicodeScalars))
        return order == 0 ? a < b : order < 0
    }

    public static func less(_ a: String, _ b: String) -> Bool {
        less(Path(a), Path(b))
    }

    private static func compare(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                let startA = i
                let startB = j
                while i < a.count, isDigit(a[i]) { i += 1 }
                while j < b.count, isDigit(b[j]) { j += 1 }
                let digitsA = a[startA..<i].drop { $0 == "0" }
                let digitsB = b[startB..<j].drop { $0 == "0" }
                if digitsA.count != digitsB.count { return digitsA.count < digitsB.count ? -1 : 1 }
                for (x, y) in zip(digitsA, digitsB) where x != y { return x.value < y.value ? -1 : 1 }
                continue
            }
            let x = folded(a[i])
            let y = folded(b[j])
            if x != y { return x < y ? -1 : 1 }
            i += 1
            j += 1
        }
        return (a.count - i) - (b.count - j) < 0 ? -1 : ((a.count - i) == (b.count - j) ? 0 : 1)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 48 && scalar.value <= 57
    }

    private static func folded(_ scalar: Unicode.Scalar) -> UInt32 {
        scalar.value >= 65 && scalar.value <= 90 ? scalar.value + 32 : scalar.value
    }
}
