import Glibc

/// The process's environment, as the places and choices made from it read it.
public enum ProcessEnvironment {
    /// The variables among `names` that are set, by name.
    public static func values(of names: [String]) -> [String: String] {
        var environment: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}
