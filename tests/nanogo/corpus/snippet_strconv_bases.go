n := 2024
fmt.Println(strconv.FormatInt(int64(n), 2))
fmt.Println(strconv.FormatInt(int64(n), 8))
fmt.Println(strconv.FormatInt(int64(n), 16))
fmt.Println(strconv.FormatInt(int64(n), 36))
for _, s := range []string{"ff", "FF", "0x10", "z"} {
	v, err := strconv.ParseInt(s, 16, 64)
	fmt.Println(s, v, err)
}
b, err := strconv.ParseBool("T")
fmt.Println(b, err)
