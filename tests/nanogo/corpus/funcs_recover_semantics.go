package main

import (
	"errors"
	"fmt"
)

func helper() interface{} { return recover() }

func indirect() (msg string) {
	defer func() {
		r := helper()
		msg = fmt.Sprint("helper got ", r)
	}()
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint("direct got ", r)
		}
	}()
	panic("boom")
}

func nested() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("nested: %v", r)
		}
	}()
	func() {
		defer func() {
			if r := recover(); r != nil {
				panic(fmt.Sprint("again: ", r))
			}
		}()
		panic("inner")
	}()
	return nil
}

func main() {
	fmt.Println(recover())
	fmt.Println(indirect())
	fmt.Println(nested())
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = r.(error)
			}
		}()
		panic(errors.New("typed error"))
	}()
	fmt.Println(err, err != nil)
}
