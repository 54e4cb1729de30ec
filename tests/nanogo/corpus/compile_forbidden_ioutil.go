package main

import "io/ioutil"

func main() {
	data, _ := ioutil.ReadFile("/etc/passwd")
	println(len(data))
}
