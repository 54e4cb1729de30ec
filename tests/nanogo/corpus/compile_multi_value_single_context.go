package main

import (
	"fmt"
	"strconv"
)

func main() {
	fmt.Println(strconv.Atoi("1") + 1)
}
