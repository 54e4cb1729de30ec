package main

func main() {
	fmt.Println("forgot the import")
}
