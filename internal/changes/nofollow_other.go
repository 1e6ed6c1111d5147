//go:build !unix

package changes

// oNoFollow is not needed where links are not swapped in this way.
const oNoFollow = 0
