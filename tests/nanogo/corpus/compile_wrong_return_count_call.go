package main

import (
	"fmt"
	"strconv"
)

func main() {
	n := strconv.Atoi("5")
	fmt.Println(n)
}
