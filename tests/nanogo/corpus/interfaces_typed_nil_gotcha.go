package main

import (
	"errors"
	"fmt"
)

type MyErr struct{ Msg string }

func (e *MyErr) Error() string { return "myerr: " + e.Msg }

func mayFail(fail bool) error {
	var e *MyErr
	if fail {
		e = &MyErr{"failed"}
	}
	return e
}

func correct(fail bool) error {
	if fail {
		return &MyErr{"failed"}
	}
	return nil
}

func main() {
	err := mayFail(false)
	fmt.Println(err == nil, err != nil)
	fmt.Printf("%T\n", err)
	fmt.Println(err)
	fmt.Println(correct(false) == nil, correct(true))
	var target *MyErr
	fmt.Println(errors.As(correct(true), &target), target.Msg)
	var p *MyErr
	var iface interface{} = p
	fmt.Println(iface == nil, p == nil)
}
