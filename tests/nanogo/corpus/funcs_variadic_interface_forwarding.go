package main

import (
	"fmt"
	"strings"
)

type Logger struct {
	prefix string
	lines  []string
}

func (l *Logger) Logf(format string, args ...interface{}) {
	l.lines = append(l.lines, l.prefix+fmt.Sprintf(format, args...))
}

func (l *Logger) Log(args ...interface{}) {
	l.lines = append(l.lines, l.prefix+fmt.Sprint(args...))
}

func (l *Logger) Logln(args ...interface{}) {
	l.lines = append(l.lines, l.prefix+strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
}

func joinAll(sep string, groups ...[]string) string {
	var all []string
	for _, g := range groups {
		all = append(all, g...)
	}
	return strings.Join(all, sep)
}

func main() {
	l := &Logger{prefix: "> "}
	l.Logf("%d + %d = %d", 1, 2, 3)
	l.Logf("no args")
	l.Log("a", 1, 2, "b")
	l.Logln("a", 1, 2, "b")
	args := []interface{}{"x", 42}
	l.Logf("%s=%d", args...)
	l.Log()
	for _, line := range l.lines {
		fmt.Printf("%q\n", line)
	}
	fmt.Println(joinAll("/", []string{"a", "b"}, nil, []string{"c"}))
}
