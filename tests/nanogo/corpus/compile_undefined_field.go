package main

import "fmt"

type User struct {
	Name string
}

func main() {
	u := User{Name: "a"}
	fmt.Println(u.Email)
}
