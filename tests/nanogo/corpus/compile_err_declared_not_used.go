package main

import (
	"fmt"
	"strconv"
)

func main() {
	n, err := strconv.Atoi("5")
	fmt.Println(n)
}
