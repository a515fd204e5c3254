/// A password for MPD's clients and what it permits, as MPD's `password "SECRET@read,add"`:
/// `SECRET` alone permits everything.
public struct MpdPassword: Equatable, Sendable {
    public var secret: String
    public var permission: MpdCommand.Permission

    public init(secret: String, permission: MpdCommand.Permission = .all) {
        self.secret = secret
        self.permission = permission
    }

    /// The permissions by name, as MPD names them.
    public static let names: [(String, MpdCommand.Permission)] = [
        ("read", .read), ("add", .add), ("control", .control), ("admin", .admin), ("player", .player),
    ]

    /// `SECRET` or `SECRET@PERMISSION,…`; why not, when it is not one.
    public static func parse(_ text: String) -> Result<MpdPassword, MpdPasswordProblem> {
        guard let at = text.lastIndex(of: "@") else {
            return text.isEmpty ? .failure(MpdPasswordProblem("give a password, e.g. mpd-password = s3cret")) : .success(MpdPassword(secret: text))
        }
        let secret = String(text[..<at])
        guard !secret.isEmpty else { return .failure(MpdPasswordProblem("give the password before @, e.g. s3cret@read,add")) }
        var permission: MpdCommand.Permission = []
        for name in text[text.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false) {
            let word = name.trimmingSpaces
            guard let found = names.first(where: { $0.0 == word }) else {
                return .failure(MpdPasswordProblem("unknown permission \"\(word)\": give read, add, control, admin or player"))
            }
            permission.insert(found.1)
        }
        return .success(MpdPassword(secret: secret, permission: permission))
    }
}

public struct MpdPasswordProblem: Error, Equatable, Sendable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
