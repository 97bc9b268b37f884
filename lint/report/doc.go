// Package report renders lint results. Each reporter is a pure function of
// the result: Report(w, Result) error. Formats: text and json (sarif,
// github, junit and markdown follow the same contract).
package report
