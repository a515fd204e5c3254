import Glibc

/// The process's environment, as the places and choices made from it read it.
public enum ProcessEnvironment {
    /// The variables among `names` that are set, by name.
    public static func values(of names: [String]) -> [String: String] {
        // Room for all at once: growing a dictionary is the standard library's code, which makes
        // the storage's type by its mangled name and scans the binary's conformances for it.
        var environment = [String: String](minimumCapacity: names.count)
        for name in names {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}
