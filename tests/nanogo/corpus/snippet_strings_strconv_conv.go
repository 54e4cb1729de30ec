n, err := strconv.Atoi("256")
if err != nil {
	fmt.Println("error:", err)
}
fmt.Println(n * 2)
f, _ := strconv.ParseFloat("2.75", 64)
fmt.Println(f * 4)
s := strconv.Itoa(99) + " bottles"
fmt.Println(s)
fmt.Println(strconv.FormatInt(255, 16), strconv.Quote("a\"b"))
_, err = strconv.Atoi("twelve")
fmt.Println(err)
