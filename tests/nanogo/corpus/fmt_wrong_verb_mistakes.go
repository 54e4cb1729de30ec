package main

import (
	"errors"
	"fmt"
)

type User struct {
	Name string
	Age  int
}

func main() {
	err := errors.New("boom")
	fmt.Printf("error: %w\n", err)
	fmt.Printf("%d items\n", 3.0)
	fmt.Printf("%s\n", User{"ann", 5})
	fmt.Printf("%d\n", User{"ann", 5})
	fmt.Printf("%s is %d\n", "age")
	fmt.Printf("%v %v\n", []string{}, map[int]int(nil))
	msg := fmt.Sprintf("%.2f", "1.5")
	fmt.Println(msg)
	fmt.Println(fmt.Sprintf("%5s|%-5s|%5.1f", "toolongvalue", "x", 123.456))
	fmt.Printf("%q %v %d\n", []byte("hi"), []byte("hi"), []byte("hi"))
	fmt.Printf("%x %X\n", "Hi", []string{"ab", "c"})
}
