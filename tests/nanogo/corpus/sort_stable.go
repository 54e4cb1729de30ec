package main

import (
	"fmt"
	"sort"
)

type Student struct {
	Name  string
	Grade int
}

func main() {
	s := []Student{
		{"Amy", 90}, {"Bob", 85}, {"Cat", 90}, {"Dan", 70}, {"Eve", 85}, {"Fay", 90},
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].Grade > s[j].Grade })
	for _, st := range s {
		fmt.Println(st.Name, st.Grade)
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	fmt.Println(s)
}
