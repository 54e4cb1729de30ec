package main

import (
	"fmt"
	"sort"
	"strings"
)

type File struct {
	Name string
	Size int
	Dir  bool
}

func main() {
	files := []File{
		{"readme.md", 1200, false},
		{"src", 0, true},
		{"main.go", 5400, false},
		{"docs", 0, true},
		{"go.mod", 80, false},
		{"Makefile", 300, false},
	}
	sort.Slice(files, func(i, j int) bool {
		if files[i].Dir != files[j].Dir {
			return files[i].Dir
		}
		return strings.ToLower(files[i].Name) < strings.ToLower(files[j].Name)
	})
	for _, f := range files {
		kind := "file"
		if f.Dir {
			kind = "dir"
		}
		fmt.Printf("%-4s %-10s %6d\n", kind, f.Name, f.Size)
	}
	sizes := []int{}
	for _, f := range files {
		sizes = append(sizes, f.Size)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(sizes)))
	fmt.Println(sizes)
	names := sort.StringSlice{"b", "c", "a"}
	names.Sort()
	fmt.Println(names, sort.StringsAreSorted(names))
}
