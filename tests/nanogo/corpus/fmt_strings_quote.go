package main

import "fmt"

func main() {
	fmt.Printf("%q\n", "tab\there \"quoted\" back\\slash")
	fmt.Printf("%+q\n", "héllo 世界")
	fmt.Printf("%#q\n", "raw`able")
	fmt.Printf("%#q\n", "plain")
	fmt.Printf("%q\n", []string{"a b", "c"})
	fmt.Printf("%q\n", "\x00\x7f\u00e9")
	fmt.Printf("%x\n", "héllo")
	fmt.Printf("% x\n", "abc")
	fmt.Printf("%s|%10s|%-10s|\n", []string{"x", "y"}, "right", "left")
	fmt.Printf("%v %s\n", []byte("bytes"), []byte("bytes"))
	fmt.Printf("%q\n", 0x1F600)
}
