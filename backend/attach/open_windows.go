package attach

// noFollow: Windows has no such flags; the file was looked at with
// Lstat just before, and its handle is checked again once open.
const noFollow = 0
