package lawcore

// Version is the calculator's version, recorded in exports.
const Version = "0.1.0"
