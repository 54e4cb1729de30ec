package main

import "fmt"

type ParseError struct {
	Line int
}

func (p ParseError) Error() string { return fmt.Sprintf("parse error on line %d", p.Line) }

func main() {
	fmt.Println("parsing")
	panic(ParseError{12})
}
