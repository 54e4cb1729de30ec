package main

import (
	"fmt"
)

type Level int

const (
	Debug Level = iota
	Info
	Warn
)

func (l Level) String() string {
	return [...]string{"DEBUG", "INFO", "WARN"}[l]
}

type MyErr struct{ Code int }

func (e *MyErr) Error() string { return fmt.Sprintf("code %d", e.Code) }

type Both struct{}

func (Both) Error() string  { return "as error" }
func (Both) String() string { return "as stringer" }

func main() {
	fmt.Println(Info, Warn)
	fmt.Printf("%v %s %d %q %x\n", Warn, Warn, Warn, Warn, Warn)
	fmt.Printf("%+v %#v\n", Debug, Debug)
	var err error = &MyErr{404}
	fmt.Println(err)
	fmt.Printf("%v %s\n", err, err)
	fmt.Println(Both{})
	fmt.Println([]Level{Debug, Warn}, map[Level]int{Warn: 1, Debug: 2})
	fmt.Printf("%5s|%-6v|\n", Info, Debug)
}
