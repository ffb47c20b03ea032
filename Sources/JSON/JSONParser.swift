/// Strict RFC 8259 parser — implemented in issue #3.
public enum JSONParser {}
