func isPalindrome(s string) bool {
	s = strings.ToLower(s)
	var clean []rune
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			clean = append(clean, r)
		}
	}
	for i, j := 0, len(clean)-1; i < j; i, j = i+1, j-1 {
		if clean[i] != clean[j] {
			return false
		}
	}
	return true
}

tests := []string{"A man, a plan, a canal: Panama", "race a car", "Was it a car or a cat I saw?", ""}
for _, t := range tests {
	fmt.Printf("%q -> %v\n", t, isPalindrome(t))
}
