// Package units reads configuration values exactly as Apache Flink and
// Apache Hadoop read them, and renders sizes and durations for messages and
// fixes.
//
// Flink and Hadoop disagree on almost every detail of value syntax. Flink's
// TimeUtils.parseDuration accepts "10 min", "10min" and (from 1.15) "10m",
// treats a bare number as milliseconds and rejects "10 mins" and "10us";
// Hadoop's Configuration.getTimeDuration accepts "10m" and "10us", treats a
// bare number as the caller's unit and rejects "10 min" and "10 s". Flink's
// MemorySize takes "1mb"; Hadoop's getLongBytes rejects it. Each parser here
// mirrors one upstream method, including its trimming (Java String.trim, which
// removes every character up to U+0020), its case folding and its overflow
// checks, and returns an *Error whose reason quotes the upstream message where
// there is one, followed by advice where the mistake is a common one.
//
// Durations that Flink or Hadoop accept but that exceed time.Duration (about
// 292 years) are returned as MaxDuration or -MaxDuration; no checkpoint rule
// can tell such values apart.
package units
