hash := func(s string) uint32 {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}
for _, w := range []string{"", "a", "hello", "Go语言"} {
	fmt.Printf("%-8q %10d %08x\n", w, hash(w), hash(w))
}
var h64 uint64 = 14695981039346656037
for _, b := range []byte("abc") {
	h64 ^= uint64(b)
	h64 *= 1099511628211
}
fmt.Println(h64, int64(h64))
