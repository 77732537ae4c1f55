package fluss_test

// logFormat is the log format of the tables the data tests create: Fluss's
// default, so that the common path is the tested one.
const logFormat = "ARROW"
