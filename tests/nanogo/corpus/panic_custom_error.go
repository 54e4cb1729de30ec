package main

import (
	"errors"
	"fmt"
)

func main() {
	fmt.Println("about to fail")
	panic(errors.New("something went wrong"))
}
