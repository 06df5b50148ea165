package core

import "net/url"

// BracketList is a repeated query parameter written key[]=a&key[]=b, as a
// slice field tagged `url:"key,brackets"` is. go-querystring, the query
// encoder, hands the whole list to EncodeValues instead of formatting each
// element by reflection (two allocations an element: about a hundred for a
// get-many of 50 ids).
type BracketList []string

// EncodeValues adds the list under key+"[]"; it is go-querystring's
// Encoder interface.
func (l BracketList) EncodeValues(key string, v *url.Values) error {
	if len(l) == 0 {
		return nil
	}
	k := key + "[]"
	(*v)[k] = append((*v)[k], l...)
	return nil
}
